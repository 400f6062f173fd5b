import DarkroomCore

/// What a compositing filter lays over the image: a colour, an image placed or tiled, a
/// gradient, text. It renders any rectangle of the output on its own, so strips are drawn in
/// parallel and none draws more than its rectangle.
protocol Layer: Sendable {
    /// The part of the output the layer covers; it is transparent everywhere else.
    var coverage: Rect { get }
    /// Whether every pixel it draws is grey (R = G = B).
    var isGrey: Bool { get }
    /// Premultiplied pixels of `rect` (transparent outside ``coverage``), row-major into `out`.
    func render(_ rect: Rect, into out: UnsafeMutablePointer<Pixel>)
}

/// One colour over the whole image.
struct ColorLayer: Layer {
    let color: Pixel
    let coverage: Rect

    var isGrey: Bool { color.isGrey }

    func render(_ rect: Rect, into out: UnsafeMutablePointer<Pixel>) {
        out.update(repeating: color, count: rect.width * rect.height)
    }
}

/// An image at its natural size with its top-left corner at `origin`, read pixel for pixel
/// (exact: no resampling), and repeated or mirrored beyond itself when `edge` says so.
struct PlacedImageLayer: Layer {
    let image: any ImageAsset
    let origin: (x: Int, y: Int)
    let edge: EdgeMode
    let coverage: Rect

    /// - Parameter clip: what of the output it may cover (a `cover` fit's rectangle); nil: all.
    init(image: any ImageAsset, origin: (x: Int, y: Int), edge: EdgeMode = .transparent, clip: Rect? = nil, in size: Size) {
        self.image = image
        self.origin = origin
        self.edge = edge
        let placed = edge == .transparent ? Rect(x: origin.x, y: origin.y, width: image.size.width, height: image.size.height) : Rect(size: size)
        coverage = placed.intersection(clip ?? Rect(size: size)).intersection(Rect(size: size))
    }

    var isGrey: Bool { image.isGrey }

    func render(_ rect: Rect, into out: UnsafeMutablePointer<Pixel>) {
        var i = 0
        let c = coverage
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let inside = x >= c.x && x < c.maxX && y >= c.y && y < c.maxY
                out[i] = inside ? image.pixel(x - origin.x, y - origin.y, edge: edge) : .zero
                i += 1
            }
        }
    }
}
