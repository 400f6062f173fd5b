import CDarkroomDraw
import DarkroomCore

/// The image or SVG document a graphic parameter names, ready to be drawn at any size: an image
/// at its natural size is read pixel for pixel; scaled, it is resampled once by cairo; an SVG is
/// rendered by librsvg at the size it is drawn (once per size), so a logo stays sharp.
struct Graphic: Sendable {
    let asset: GraphicAsset
    /// The size it has when not scaled: an image's pixels; an SVG's width and height (or its
    /// viewBox); nil when the SVG says neither.
    let naturalSize: (width: Double, height: Double)?
    private let cache = Once<Size, Result<RenderedImage, DrawFailure>>()

    /// Pixels a scaled image or an SVG may be drawn at (1 GiB as ARGB32); larger is not drawn,
    /// since it would be rendered whole before the first strip.
    static let largestDrawn = 1 << 28

    /// Reads the SVG document's size, so a broken document is refused when the config loads.
    init(_ asset: GraphicAsset) throws(ParameterError) {
        self.asset = asset
        switch asset {
        case .image(let image):
            naturalSize = (Double(image.size.width), Double(image.size.height))
        case .svg(let document):
            try DrawingLibraries.require(.rsvg)
            var (w, h) = (0.0, 0.0)
            var message = [CChar](repeating: 0, count: 256)
            let status = document.bytes.withUnsafeBufferPointer { dr_svg_size($0.baseAddress, $0.count, &w, &h, &message, message.count) }
            guard status == 0 else {
                throw ParameterError("\(document.identity.path): not a valid SVG document (\(String(cMessage: message)))")
            }
            naturalSize = w > 0 && h > 0 ? (w, h) : nil
        }
    }

    /// A layer drawing the graphic with its top-left corner at `origin`, `size` pixels big,
    /// repeated beyond that as `edge` says (transparent, repeat or mirror) and limited to `clip`,
    /// over an output of `imageSize`.
    func layer(origin: (x: Int, y: Int), size: Size, edge: EdgeMode, clip: Rect?, in imageSize: Size) -> any Layer {
        guard size.area <= Self.largestDrawn else {
            return FailedLayer("\(asset.identity.path) would be drawn at \(size.width)×\(size.height), more than the "
                               + "\(Self.largestDrawn) pixels a drawn graphic may have: draw it smaller")
        }
        let made: Result<RenderedImage, DrawFailure>
        switch asset {
        case .image(let image) where image.size == size:
            return PlacedImageLayer(image: image, origin: origin, edge: edge, clip: clip, in: imageSize)
        case .image(let image):
            // Scaled once, whole: painting it per strip would let pixman's bilinear stepping
            // depend on where a strip starts, and strips must not change a pixel.
            made = cache.value(for: size) { .success(Self.scale(image, to: size)) }
        case .svg(let document):
            made = cache.value(for: size) { Self.render(document, size) }
        }
        let drawn: RenderedImage
        switch made {
        case .success(let image): drawn = image
        case .failure(let failure): return FailedLayer(failure.message)
        }
        return PlacedImageLayer(image: drawn, origin: origin, edge: edge, clip: clip, in: imageSize)
    }

    /// `image` scaled to `size` by cairo (smooth filtering: box-like when shrinking, bilinear
    /// when enlarging).
    private static func scale(_ image: any ImageAsset, to size: Size) -> RenderedImage {
        var pixels = [UInt32](repeating: 0, count: size.area)
        if size.area > 0 {
            let layer = PaintLayer(kind: .image(argb: ARGB.pixels(of: image), size: image.size,
                                                into: (0, 0, Double(size.width), Double(size.height))),
                                   coverage: Rect(size: size), isGrey: image.isGrey)
            pixels.withUnsafeMutableBufferPointer { layer.paint(Rect(size: size), into: $0.baseAddress!) }
        }
        return RenderedImage(identity: image.identity, size: size, argb: pixels)
    }

    /// The document rendered into a `size` viewport, or why librsvg could not render it (it
    /// parsed when the config loaded; a document can still fail to render).
    private static func render(_ document: DataAsset, _ size: Size) -> Result<RenderedImage, DrawFailure> {
        var pixels = [UInt32](repeating: 0, count: size.area)
        if size.area > 0 {
            var message = [CChar](repeating: 0, count: 256)
            let status = document.bytes.withUnsafeBufferPointer { bytes in
                pixels.withUnsafeMutableBufferPointer {
                    dr_svg_render(bytes.baseAddress, bytes.count, Int32(size.width), Int32(size.height), $0.baseAddress, &message, message.count)
                }
            }
            if status != 0 {
                return .failure(DrawFailure(message: "\(document.identity.path): the SVG document could not be drawn at "
                                            + "\(size.width)×\(size.height) (\(String(cMessage: message)))"))
            }
        }
        return .success(RenderedImage(identity: document.identity, size: size, argb: pixels))
    }
}

/// Why a graphic or a text block could not be drawn, in words for the report.
struct DrawFailure: Error {
    let message: String
}
