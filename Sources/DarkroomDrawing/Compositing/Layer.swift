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
    /// Bytes of the raster it draws from that were drawn for this layer (a scaled image, an
    /// SVG or text rendering), not the shared assets'.
    var heldBytes: Int { get }
    /// Why it cannot be drawn, or nil.
    var failure: String? { get }
}

extension Layer {
    var heldBytes: Int { 0 }
    var failure: String? { nil }
}

/// A layer that could not be made: the render stops with `failure` before anything is decoded.
struct FailedLayer: Layer {
    let failure: String?
    var coverage: Rect { Rect(x: 0, y: 0, width: 0, height: 0) }
    var isGrey: Bool { true }
    init(_ why: String) { failure = why }
    func render(_ rect: Rect, into out: UnsafeMutablePointer<Pixel>) {
        out.update(repeating: .zero, count: rect.width * rect.height)
    }
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
    var heldBytes: Int { (image as? RenderedImage)?.byteCount ?? 0 }

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
