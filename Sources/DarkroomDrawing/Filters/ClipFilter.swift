import DarkroomCore
import Foundation

/// CGContextClip / EOClip: keeps the inside of a shape and makes the rest transparent (or a
/// colour), with an antialiased edge, softened by `feather`. The shape is given with flat keys:
/// `shape: ellipse` (center, radii), `rect` and `rounded_rect` (x, y, width, height; radius),
/// `polygon` (points), `path` (d: SVG path data), each `fill_rule` nonzero or even_odd (an even-odd star keeps its
/// points and loses its pentagon).
public struct ClipFilter: RegionFilter {
    public enum ShapeName: String, Sendable, CaseIterable { case ellipse, rect, rounded_rect, polygon, path }

    public static let descriptor = FilterDescriptor(
        name: "clip", displayName: "Clip to Shape", categories: ["composite", "geometry"],
        description: """
            Keeps the inside of a shape: ellipse (center, radii), rect or rounded_rect (x, y, \
            width, height, radius), polygon (points) or path (d: SVG path data), by fill_rule; the rest becomes outside \
            (transparent by default). feather softens the edge (a Gaussian of sigma feather/2).
            """,
        counterpart: "CGContextClip / CGContextEOClip",
        parameters: [
            ParameterDescriptor("shape", .choice(ShapeName.allCases.map(\.rawValue)), "ellipse, rect, rounded_rect, polygon or path.",
                                default: .choice("ellipse")),
            ParameterDescriptor("center", .point, "Ellipse: its centre (px or %).", default: .point(Length(50, percent: true), Length(50, percent: true))),
            ParameterDescriptor("radii", .point, "Ellipse: [rx, ry] (px, or % of the width and height).",
                                default: .point(Length(50, percent: true), Length(50, percent: true))),
            ParameterDescriptor("x", .length, "Rectangle: left edge (px or %).", default: .length(Length(0)), unit: "px"),
            ParameterDescriptor("y", .length, "Rectangle: top edge (px or %).", default: .length(Length(0)), unit: "px"),
            ParameterDescriptor("width", .length, "Rectangle: width (px or %).", default: .length(Length(100, percent: true)), min: 0, unit: "px"),
            ParameterDescriptor("height", .length, "Rectangle: height (px or %).", default: .length(Length(100, percent: true)), min: 0, unit: "px"),
            ParameterDescriptor("radius", .lengths, "rounded_rect: one corner radius, or [top_left, top_right, bottom_right, bottom_left] (px or % of the shorter side).",
                                default: .lengths([Length(16)])),
            ParameterDescriptor("points", .lengths, "Polygon: [x1, y1, x2, y2, …] in px or % (x of the width, y of the height), at least three points."),
            ParameterDescriptor("d", .text, "Path: SVG path data in px (M, L, H, V, C, S, Q, T, A, Z; lower case relative)."),
            ParameterDescriptor("fill_rule", .choice(FillRule.allCases.map(\.rawValue)), "nonzero or even_odd.", default: .choice("nonzero")),
            ParameterDescriptor("outside", .color, "What replaces the outside.", default: .color(.transparent)),
            ParameterDescriptor("feather", .scalar, "Softness of the edge in px (sigma feather/2).", default: .number(0),
                                min: 0, max: 500, slider: 0...50, unit: "px"),
        ],
        examples: [
            "shape=rect x=3 y=2 width=50% height=60% outside=#ff000080",
            "shape=rounded_rect radius=[2,5,0,8] width=80%",
            "shape=polygon points=[2,2,30,5,10,25,25,25,5,8] fill_rule=even_odd feather=3",
            "feather=4 outside=white",
            "shape=path d=\"M 3 3 L 40 8 Q 20 30 5 20 Z\" fill_rule=even_odd",
        ])

    public var geometry: ShapeGeometry
    public var fillRule: FillRule
    public var outside: RGBA
    public var feather: Double

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        let p = Self.described(parameters)
        let shape = p.choice("shape", as: ShapeName.self)
        geometry = try ShapeRecord.geometry(ShapeRecord.Kind(rawValue: shape.rawValue)!, p, fields: Self.descriptor.parameters)
        fillRule = p.choice("fill_rule", as: FillRule.self)
        outside = p.color("outside")
        feather = p.number("feather")
    }

    public func outputSize(for input: Size) -> Size { input }

    /// Sharp: one kernel, the input times the shape's coverage. Feathered: the coverage as a
    /// layer of its own over the image plus the blur's reach on every side (so the soft edge
    /// near the border follows the shape beyond it, not an extended edge), blurred by the same
    /// two-pass Gaussian as `gaussian_blur`, whose bands the pipeline computes once and shares
    /// between strips; then the input times it. From sigma 12 (feather 24) the layer is the
    /// shape's coverage of cells (the path scaled down), blurred over them and interpolated back
    /// (``ReducedGaussian``), as a shadow's alpha is.
    public func plan(for input: Size) -> KernelPlan {
        let path = geometry.path(in: input)
        guard feather > 0 else {
            return KernelPlan(ClipKernel(size: input, maskSize: nil, margin: 0, path: path, rule: fillRule, outside: outside.pixel))
        }
        let reduced = ReducedGaussian(sigma: feather / 2)
        let mask: ClipMask, blurred: [KernelPlan.Step], margin: Int
        if reduced.scale == 1 {
            let blur = reduced.blur, h = blur.halo
            mask = ClipMask(size: Size(width: input.width + 2 * h, height: input.height + 2 * h), margin: h, path: path, rule: fillRule)
            (blurred, margin) = (blur.steps(for: mask.outputSize, from: .step(0), first: 1), h)
        } else {
            mask = ClipMask(size: reduced.cells(over: input), margin: reduced.cellMargin,
                            path: path.scaled(by: 1 / Double(reduced.scale)), rule: fillRule)
            (blurred, margin) = (reduced.steps(blurring: .step(0), canvas: input, first: 1, tint: Pixel(1, 1, 1, 1)), 0)
        }
        // The blurred mask covers the image and `margin` on every side.
        let clip = ClipKernel(size: input, maskSize: Size(width: input.width + 2 * margin, height: input.height + 2 * margin),
                              margin: margin, path: path, rule: fillRule, outside: outside.pixel)
        return KernelPlan([.init(mask, sources: [], label: "mask")] + blurred
            + [.init(clip, sources: [.input, .step(blurred.count)], label: "clip")])
    }
}

/// A shape's coverage c as the pixel (c, c, c, c), over the image's canvas grown by `margin`
/// on every side: pixel (x, y) is image pixel (x − margin, y − margin) (or, with the path
/// scaled down, a cell of a ``ReducedGaussian``).
struct ClipMask: PixelKernel {
    let outputSize: Size
    let margin: Int
    let path: Path
    let rule: FillRule

    init(size: Size, margin: Int, path: Path, rule: FillRule) {
        outputSize = size
        self.margin = margin
        self.path = path
        self.rule = rule
    }

    var inputs: [KernelInput] { [] }
    var preservesOpacity: Bool { false }
    var preservesGrey: Bool { true }

    func inputRegions(for output: Rect) -> [Rect] { [] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, m = margin
        let coverage = Coverage(path, rule: rule, in: Rect(x: r.x - m, y: r.y - m, width: r.width, height: r.height))
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            for i in 0..<r.width {
                let c = coverage[r.x + i - m, y - m]
                out[i] = Pixel(c, c, c, c)
            }
        }
    }
}

/// The input times the shape's coverage, over `outside` times the rest. The coverage is the
/// path's own (sharp) or, with `maskSize`, the second input: a blurred ``ClipMask`` whose
/// pixel (x + margin, y + margin) belongs to image pixel (x, y).
struct ClipKernel: PixelKernel {
    let size: Size
    let maskSize: Size?
    let margin: Int
    let path: Path
    let rule: FillRule
    let outside: Pixel

    var outputSize: Size { size }
    var inputs: [KernelInput] {
        [KernelInput(size: size, edge: .clamp)] + (maskSize.map { [KernelInput(size: $0, edge: .clamp)] } ?? [])
    }
    var preservesOpacity: Bool { outside[3] >= 1 }
    var preservesGrey: Bool { outside.isGrey }

    func inputRegions(for output: Rect) -> [Rect] {
        [output] + (maskSize == nil ? [] : [Rect(x: output.x + margin, y: output.y + margin, width: output.width, height: output.height)])
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        let sharp = maskSize == nil ? Coverage(path, rule: rule, in: r) : nil
        for y in r.y..<r.maxY {
            let src = inputs[0].pointer(r.x, y), out = target.pointer(r.x, y)
            if let sharp {
                for i in 0..<r.width {
                    let c = sharp[r.x + i, y]
                    out[i] = src[i] * c + outside * (1 - c)
                }
            } else {
                let mask = inputs[1].pointer(r.x + margin, y + margin)
                for i in 0..<r.width {
                    let c = mask[i][3]
                    out[i] = src[i] * c + outside * (1 - c)
                }
            }
        }
    }
}
