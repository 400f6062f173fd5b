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
            ParameterDescriptor("radius", .numbers, "rounded_rect: one corner radius, or [top_left, top_right, bottom_right, bottom_left] (px).",
                                default: .numbers([16])),
            ParameterDescriptor("points", .numbers, "Polygon: [x1, y1, x2, y2, …] in px, at least three points."),
            ParameterDescriptor("d", .text, "Path: SVG path data (M, L, H, V, C, S, Q, T, A, Z; lower case relative)."),
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
        let keys: [ShapeName: Set<String>] = [.ellipse: ["center", "radii"], .rect: ["x", "y", "width", "height"],
                                              .rounded_rect: ["x", "y", "width", "height", "radius"], .polygon: ["points"], .path: ["d"]]
        let own = keys[shape]!
        // A key of another shape is a mistake worth naming (a polygon's points on an ellipse).
        // Defaults fill every key in, so a key counts as given when it differs from its default.
        func given(_ name: String) -> Bool { parameters[name] != nil && parameters[name] != Self.descriptor.parameter(named: name)?.defaultValue }
        for other in Set(keys.values.flatMap { $0 }).subtracting(own).sorted() where given(other) {
            let owners = keys.filter { $0.value.contains(other) }.map(\.key.rawValue).sorted().joined(separator: ", ")
            throw ParameterError("\(other) belongs to shape \(owners), not \(shape.rawValue)")
        }
        switch shape {
        case .ellipse:
            let (c, r) = (p.point("center"), p.point("radii"))
            geometry = .ellipse(center: LengthPoint(c.0, c.1), radii: LengthPoint(r.0, r.1))
        case .rect, .rounded_rect:
            var radii = [Double](repeating: 0, count: 4)
            if shape == .rounded_rect {
                guard case .numbers(let r) = p["radius"], r.count == 1 || r.count == 4 else {
                    throw ParameterError("radius: give one radius or four [top_left, top_right, bottom_right, bottom_left]")
                }
                if let bad = r.first(where: { $0 < 0 }) { throw ParameterError("radius must be at least 0, got \(bad)") }
                radii = r.count == 1 ? Array(repeating: r[0], count: 4) : r
            }
            geometry = .rect(x: p.length("x"), y: p.length("y"), width: p.length("width"), height: p.length("height"), radii: radii)
        case .polygon:
            guard let points = parameters.numbers("points") else {
                throw ParameterError("shape polygon needs points: [x1, y1, x2, y2, x3, y3, …]")
            }
            guard points.count % 2 == 0, points.count >= 6 else {
                throw ParameterError("points: give x, y pairs, at least three points; got \(points.count) numbers")
            }
            geometry = .polygon(points)
        case .path:
            guard let d = parameters.text("d") else { throw ParameterError("shape path needs d: SVG path data", at: [.key("shape")]) }
            do { geometry = .path(try SVGPathData.parse(d)) } catch { throw ParameterError(error.message, at: [.key("d")]) }
        }
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
