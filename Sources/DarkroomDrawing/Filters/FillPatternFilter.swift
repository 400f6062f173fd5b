import DarkroomCore

/// CGPatternCreate and the Decorator's draw-as-pattern: a cell of `size` (`shapes` as in
/// `draw`, clipped to the cell, or an `image`) repeated from `offset` over the whole image or
/// only inside a shape (`inside`, the clip's keys as a record), composited with `opacity` and
/// `blend`. The cell is painted once per cell size, then every strip reads it.
public struct FillPatternFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "fill_pattern", displayName: "Fill with Pattern", categories: ["composite"],
        description: """
            Repeats a cell over the image or inside a shape: size [w, h] (px or % of the image) with shapes \
            as in draw (clipped to the cell), or an image at its own size; offset [x, y] moves the \
            pattern's phase; inside {shape, …} limits it to a shape; opacity, blend.
            """,
        counterpart: "CGPatternCreate",
        parameters: [
            ParameterDescriptor("size", .point, "The cell's [width, height] in px or % of the image (an image's own size when omitted)."),
            ParameterDescriptor("shapes", .records(ShapeRecord.fields), "The cell's shapes, in the cell's own coordinates (% of the cell)."),
            ParameterDescriptor("image", .image, "An image to repeat instead of shapes."),
            ParameterDescriptor("offset", .point, "Where a cell's top-left corner lies (px or %).", default: .point(Length(0), Length(0))),
            ParameterDescriptor("inside", .record(ShapeRecord.geometryFields),
                                "Only inside this shape ({shape: ellipse, center, radii}, … as clip takes them, with fill_rule); everywhere when absent."),
            ParameterDescriptor("opacity", .scalar, "0 … 1.", default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
            ParameterDescriptor.blendMode("How the pattern combines with the image under it."),
        ],
        examples: [
            "size=[6,5] shapes=[{shape=ellipse, fill=random}, {shape=line, points=[0,0,6,5]}] offset=[2,3] opacity=0.7",
            "image=stamp.png offset=[50%,10%] blend=multiply",
        ])

    /// Cells larger than this on a side are refused: the cell is held whole.
    static let largestCellSide = 4096

    enum Cell: Sendable {
        case shapes([DrawnShape], width: Length, height: Length)
        case image(PatternCell)
    }

    let cell: Cell
    public var offset: (x: Length, y: Length)
    public var inside: (geometry: ShapeGeometry, rule: FillRule)?
    public var opacity: Double
    public var blend: BlendMode
    private let cells = Once<Size, PatternCell>()

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        let p = Self.described(parameters)
        offset = p.point("offset")
        opacity = p.number("opacity")
        blend = p.blendMode()
        if let shape = p.optionalRecord("inside") {
            do throws(ParameterError) {
                guard let kind = ShapeRecord.Kind(rawValue: shape.choice("shape")) else { throw ParameterError("unknown shape") }
                inside = (try ShapeRecord.geometry(kind, shape), shape.choice("fill_rule", as: FillRule.self))
            } catch { throw error.inside(.key("inside")) }
        }
        let hasShapes = parameters.records("shapes") != nil, image = parameters.images["image"]
        guard hasShapes != (image != nil) else { throw ParameterError("give the cell as shapes or as an image, one of them") }
        if let image {
            cell = .image(PatternCell(image: image))
            return
        }
        guard let (w, h) = parameters.point("size"), w.value > 0, h.value > 0,
              w.isPercent || (w.value >= 1 && w.value <= Double(Self.largestCellSide)),
              h.isPercent || (h.value >= 1 && h.value <= Double(Self.largestCellSide)) else {
            throw ParameterError("give the cell's [width, height] in px (each from 1 to \(Self.largestCellSide)) or %", at: [.key("size")])
        }
        var shapes = [DrawnShape]()
        for (i, record) in p.records("shapes").enumerated() {
            do { shapes.append(try ShapeRecord.shape(record)) } catch { throw error.inside(.index(i)).inside(.key("shapes")) }
        }
        cell = .shapes(shapes, width: w, height: h)
    }

    public var isIdentity: Bool { opacity == 0 && blend.isBounded }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let ox = Int(offset.x.pixels(of: input.width).rounded()), oy = Int(offset.y.pixels(of: input.height).rounded())
        let painted: PatternCell
        switch cell {
        case .image(let image):
            painted = image
        case .shapes(let shapes, let width, let height):
            // A % size is of the image; at least a pixel, at most the largest cell.
            func side(_ l: Length, _ extent: Int) -> Int { min(max(Int(l.pixels(of: extent).rounded()), 1), Self.largestCellSide) }
            let size = Size(width: side(width, input.width), height: side(height, input.height))
            painted = cells.value(for: size) { PatternCell(shapes: shapes, size: size) }
        }
        return KernelPlan(PatternKernel(size: input, cell: painted, origin: (ox, oy), opacity: Float(opacity), blend: blend,
                                        inside: inside.map { ($0.geometry.path(in: input), $0.rule) }))
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
    /// The shape the pattern is limited to, in image coordinates; nil: everywhere.
    let inside: (path: Path, rule: FillRule)?

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { blend.keepsOpaqueBackdropOpaque }
    var preservesGrey: Bool { cell.pixels.allSatisfy(\.isGrey) && blend.preservesGrey }

    func inputRegions(for output: Rect) -> [Rect] { [output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, w = cell.size.width, h = cell.size.height
        guard w > 0, h > 0 else { return }
        // Inside a shape: the pattern's pixels times the shape's coverage, so outside it the
        // layer is transparent (an unbounded operator still clears there, as in cairo).
        let coverage = inside.map { Coverage($0.path, rule: $0.rule, in: r) }
        for y in r.y..<r.maxY {
            let src = inputs[0].pointer(r.x, y), out = target.pointer(r.x, y)
            let cy = ((y - origin.y) % h + h) % h
            var cx = ((r.x - origin.x) % w + w) % w
            for i in 0..<r.width {
                let alpha = coverage.map { opacity * $0[r.x + i, y] } ?? opacity
                out[i] = blend.composite(cell.pixel(cx, cy) * alpha, onto: src[i])
                cx += 1
                if cx == w { cx = 0 }
            }
        }
    }
}
