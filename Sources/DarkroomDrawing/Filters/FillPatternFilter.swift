import DarkroomCore

/// CGPatternCreate and the Decorator's draw-as-pattern: a cell of `size` (`shapes` as in
/// `draw`, clipped to the cell, or an `image`) repeated over the whole image from `offset`,
/// composited with `opacity` and `blend`. The cell is painted once per render, then every
/// strip reads it.
public struct FillPatternFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "fill_pattern", displayName: "Fill with Pattern", categories: ["composite"],
        description: """
            Repeats a cell over the image: size [w, h] px with shapes as in draw (clipped to the \
            cell), or an image at its own size; offset [x, y] moves the pattern's phase; opacity, blend.
            """,
        counterpart: "CGPatternCreate",
        parameters: [
            ParameterDescriptor("size", .point, "The cell's [width, height] in px (an image's own size when omitted)."),
            ParameterDescriptor("shapes", .records(ShapeRecord.fields), "The cell's shapes, in the cell's own coordinates."),
            ParameterDescriptor("image", .image, "An image to repeat instead of shapes."),
            ParameterDescriptor("offset", .point, "Where a cell's top-left corner lies (px or %).", default: .point(Length(0), Length(0))),
            ParameterDescriptor("opacity", .scalar, "0 … 1.", default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
            ParameterDescriptor.blendMode("How the pattern combines with the image under it."),
        ])

    /// The painted cell, premultiplied, row-major.
    public let cell: PatternCell
    public var offset: (x: Length, y: Length)
    public var opacity: Double
    public var blend: BlendMode

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        let p = Self.described(parameters)
        offset = p.point("offset")
        opacity = p.number("opacity")
        blend = p.blendMode()
        let hasShapes = parameters.records("shapes") != nil, image = parameters.images["image"]
        guard hasShapes != (image != nil) else { throw ParameterError("give the cell as shapes or as an image, one of them") }
        if let image {
            cell = PatternCell(image: image)
            return
        }
        guard let (w, h) = parameters.point("size"), !w.isPercent, !h.isPercent, w.value >= 1, h.value >= 1,
              w.value <= 4096, h.value <= 4096 else {
            throw ParameterError("give the cell's [width, height] in px, each from 1 to 4096", at: [.key("size")])
        }
        var shapes = [DrawnShape]()
        for (i, record) in p.records("shapes").enumerated() {
            do { shapes.append(try ShapeRecord.shape(record)) } catch { throw error.inside(.index(i)).inside(.key("shapes")) }
        }
        cell = PatternCell(shapes: shapes, size: Size(width: Int(w.value.rounded()), height: Int(h.value.rounded())))
    }

    public var isIdentity: Bool { opacity == 0 && blend.isBounded }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let ox = Int(offset.x.pixels(of: input.width).rounded()), oy = Int(offset.y.pixels(of: input.height).rounded())
        return KernelPlan(PatternKernel(size: input, cell: cell, origin: (ox, oy), opacity: Float(opacity), blend: blend))
    }
}

/// A pattern's cell, painted once: shapes on transparency, or an image's pixels.
public final class PatternCell: Sendable {
    public let size: Size
    let pixels: [Pixel]

    init(shapes: [DrawnShape], size: Size) {
        self.size = size
        var pixels = [Pixel](repeating: .zero, count: size.area)
        let rect = Rect(size: size), canvas = CoverageCanvas(rect)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for shape in shapes {
                PlacedShape(shape, in: size).paint(over: rect, canvas: canvas) { base + ($1 * size.width + $0) }
            }
        }
        self.pixels = pixels
    }

    init(image: any ImageAsset) {
        size = image.size
        pixels = (0..<image.size.area).map { image.pixel($0 % image.size.width, $0 / image.size.width) }
    }

    @inline(__always) func pixel(_ x: Int, _ y: Int) -> Pixel { pixels[y * size.width + x] }
}

/// The cell repeated from `origin`, composited over the input.
struct PatternKernel: PixelKernel {
    let size: Size
    let cell: PatternCell
    let origin: (x: Int, y: Int)
    let opacity: Float
    let blend: BlendMode

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { blend.keepsOpaqueBackdropOpaque }
    var preservesGrey: Bool { cell.pixels.allSatisfy(\.isGrey) && blend.preservesGrey }

    func inputRegions(for output: Rect) -> [Rect] { [output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, w = cell.size.width, h = cell.size.height
        guard w > 0, h > 0 else { return }
        for y in r.y..<r.maxY {
            let src = inputs[0].pointer(r.x, y), out = target.pointer(r.x, y)
            let cy = ((y - origin.y) % h + h) % h
            var cx = ((r.x - origin.x) % w + w) % w
            for i in 0..<r.width {
                out[i] = blend.composite(cell.pixel(cx, cy) * opacity, onto: src[i])
                cx += 1
                if cx == w { cx = 0 }
            }
        }
    }
}
