import DarkroomCore

/// QuartzFun's and the Drawing chapter's shapes on the image: lines, polylines, rectangles,
/// rounded rectangles, ellipses, arcs, polygons and SVG paths, each filled and/or stroked
/// (width, join, miter limit, cap, dash), with a fill rule, an opacity and a blend mode,
/// painted in the order listed, antialiased by cairo. Colours may be `random`, drawn with the
/// job's seed and written in the report.
///
/// Strips are painted independently: each call rasterises only its own rectangle, and only the
/// shapes whose extents (stroke included) reach it.
public struct DrawFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "draw", displayName: "Draw Shapes", categories: ["composite"],
        description: """
            Paints shapes over the image in order: each {shape, its geometry keys, fill, stroke, \
            line_width (2), join, miter_limit, cap, dash, fill_rule, opacity, blend}.
            """,
        counterpart: "CGContext paths (QuartzFun) / cairo fill and stroke",
        parameters: [
            ParameterDescriptor("shapes", .records(ShapeRecord.fields), "The shapes, painted in order.", required: true),
        ],
        examples: [
            "shapes=[{shape=ellipse, fill=random, stroke=#00ff0080, line_width=3}, {shape=line, points=[0,0,40,30], dash=[4,2]}]",
            "shapes=[{shape=path, d=\"M 2 2 L 30 5 L 10 25 Z\", fill=white, blend=multiply, opacity=0.5}]",
            "shapes=[{shape=rounded_rect, x=5, y=3, width=50%, height=20, radius=[1,2,3,4], fill=#ff000080, blend=source_in}]",
        ])

    public var shapes: [DrawnShape]

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        var shapes = [DrawnShape]()
        for (i, record) in Self.described(parameters).records("shapes").enumerated() {
            do { shapes.append(try ShapeRecord.shape(record)) } catch { throw error.inside(.index(i)).inside(.key("shapes")) }
        }
        self.shapes = shapes
    }

    public var isIdentity: Bool { shapes.isEmpty }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        KernelPlan(ShapesKernel(size: input, shapes: shapes.map { PlacedShape($0, in: input) }))
    }
}

/// The input with shapes painted over it, strip by strip. On an opaque 8-bit source it reads
/// the decoded samples, and when it is the last step before an 8-bit encoder it paints straight
/// onto them (``RGB8OutputKernel``): the image is never float.
struct ShapesKernel: RGB8OutputKernel {
    let size: Size
    let shapes: [PlacedShape]

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { shapes.allSatisfy { $0.blend.keepsOpaqueBackdropOpaque } }
    var preservesGrey: Bool { shapes.allSatisfy { ($0.fill?.isGrey ?? true) && ($0.stroke?.isGrey ?? true) && $0.blend.preservesGrey } }
    var acceptsRGB8Input: Bool { true }
    var writesRGB8Output: Bool { preservesOpacity }

    func inputRegions(for output: Rect) -> [Rect] { [output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY { target.pointer(r.x, y).update(from: inputs[0].pointer(r.x, y), count: r.width) }
        paint(into: target)
    }

    func render(rgb8 input: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY {
            // v / 255, as the decoder's float rows hold it.
            let bytes = input.pointer(r.x, y), row = target.pointer(r.x, y)
            for i in 0..<r.width {
                row[i] = Pixel(Float(bytes[3 * i]) / 255, Float(bytes[3 * i + 1]) / 255, Float(bytes[3 * i + 2]) / 255, 1)
            }
        }
        paint(into: target)
    }

    func render(rgb8 input: RGB8RegionView, into target: RGB8RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY { target.pointer(r.x, y).update(from: input.pointer(r.x, y), count: 3 * r.width) }
        let canvas = CoverageCanvas(r)
        for shape in shapes { shape.paint(into: target, canvas: canvas) }
    }

    private func paint(into target: RegionTarget) {
        let canvas = CoverageCanvas(target.rect)
        for shape in shapes { shape.paint(into: target, canvas: canvas) }
    }
}

extension BlendMode {
    /// Whether grey source and backdrop give grey: the non-separable modes mix channels.
    var preservesGrey: Bool { ![.hue, .saturation, .color, .luminosity].contains(self) }
}
