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

    public func plan(for input: Size) -> KernelPlan {
        KernelPlan(ClipKernel(size: input, path: geometry.path(in: input), rule: fillRule, outside: outside.pixel,
                              feather: FeatherBlur(sigma: feather / 2)))
    }
}

/// The input times the shape's coverage, over `outside` times the rest.
struct ClipKernel: PixelKernel {
    let size: Size
    let path: Path
    let rule: FillRule
    let outside: Pixel
    let feather: FeatherBlur

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { outside[3] >= 1 }
    var preservesGrey: Bool { outside.isGrey }

    func inputRegions(for output: Rect) -> [Rect] { [output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        let mask = feather.coverage(of: path, rule: rule, over: r)
        for y in r.y..<r.maxY {
            let src = inputs[0].pointer(r.x, y), out = target.pointer(r.x, y)
            for i in 0..<r.width {
                let c = mask[i, y - r.y]
                out[i] = src[i] * c + outside * (1 - c)
            }
        }
    }
}
