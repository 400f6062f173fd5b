import DarkroomCore
import Foundation

/// The keys of one shape in `draw`'s `shapes` (and a pattern cell's): what each shape takes,
/// and the paint every shape shares. Declared once, so the config checks each key where it is
/// written and `darkroom filters` lists them.
public enum ShapeRecord {
    public enum Kind: String, Sendable, CaseIterable {
        case line, polyline, rect, rounded_rect, ellipse, arc, polygon, path
    }

    /// The geometry keys each kind reads; any other geometry key on it is a mistake worth naming.
    static let keys: [Kind: Set<String>] = [
        .line: ["points"], .polyline: ["points"], .polygon: ["points"],
        .rect: ["x", "y", "width", "height"], .rounded_rect: ["x", "y", "width", "height", "radius"],
        .ellipse: ["center", "radii"], .arc: ["center", "radius", "start", "end"], .path: ["d"],
    ]

    /// The keys that say where a shape is (`shape` and its geometry), without paint: what
    /// `draw`'s shapes, `clip` and `fill_pattern`'s `inside` share.
    public static let geometryFields: [ParameterDescriptor] = [
        ParameterDescriptor("shape", .choice(Kind.allCases.map(\.rawValue)),
                            "line, polyline, rect, rounded_rect, ellipse, arc, polygon or path.", required: true),
        ParameterDescriptor("points", .lengths, "line, polyline, polygon: [x1, y1, x2, y2, …] in px or % (x of the width, y of the height)."),
        ParameterDescriptor("x", .length, "rect: left edge (px or %).", default: .length(Length(0)), slider: 0...1000, unit: "px"),
        ParameterDescriptor("y", .length, "rect: top edge (px or %).", default: .length(Length(0)), slider: 0...1000, unit: "px"),
        ParameterDescriptor("width", .length, "rect: width (px or %).", default: .length(Length(100, percent: true)), min: 0,
                            slider: 1...1000, unit: "px"),
        ParameterDescriptor("height", .length, "rect: height (px or %).", default: .length(Length(100, percent: true)), min: 0,
                            slider: 1...1000, unit: "px"),
        ParameterDescriptor("radius", .lengths, "rounded_rect: one radius or [top_left, top_right, bottom_right, bottom_left]; "
                            + "arc: its radius (px or % of the shorter side)."),
        ParameterDescriptor("center", .point, "ellipse, arc: the centre (px or %).", default: .point(Length(50, percent: true), Length(50, percent: true))),
        ParameterDescriptor("radii", .point, "ellipse: [rx, ry] (px, or % of the width and height).",
                            default: .point(Length(25, percent: true), Length(25, percent: true))),
        ParameterDescriptor("start", .angle, "arc: start angle, clockwise from 3 o'clock.", default: .number(0), unit: "rad"),
        ParameterDescriptor("end", .angle, "arc: end angle.", default: .number(.pi), unit: "rad"),
        ParameterDescriptor("d", .text, "path: SVG path data in px (M, L, H, V, C, S, Q, T, A, Z; lower case relative)."),
        ParameterDescriptor("fill_rule", .choice(FillRule.allCases.map(\.rawValue)), "nonzero or even_odd.", default: .choice("nonzero")),
    ]

    public static let fields: [ParameterDescriptor] = geometryFields + [
        ParameterDescriptor("fill", .color, "Fill colour (none when absent), random allowed."),
        ParameterDescriptor("stroke", .color, "Stroke colour (none when absent; black when neither fill nor stroke is given)."),
        ParameterDescriptor("line_width", .length, "Stroke width in px or % of the shorter side.", default: .length(Length(2)), min: 0, max: 10_000,
                            slider: 0.5...20, unit: "px"),
        ParameterDescriptor("join", .choice(StrokeStyle.Join.allCases.map(\.rawValue)), "miter, round or bevel.", default: .choice("miter")),
        ParameterDescriptor("miter_limit", .scalar, "Longest miter, in line widths, before it is bevelled.", default: .number(10),
                            min: 1, max: 1000, slider: 1...20),
        ParameterDescriptor("cap", .choice(StrokeStyle.Cap.allCases.map(\.rawValue)), "butt, round or square.", default: .choice("butt")),
        ParameterDescriptor("dash", .lengths, "On and off lengths in px or % of the shorter side, e.g. [6, 3]."),
        ParameterDescriptor("opacity", .scalar, "0 … 1.", default: .number(1), min: 0, max: 1, slider: 0...1),
        ParameterDescriptor.blendMode("How the shape combines with the image under it."),
    ]

    /// The outline `kind` read from `p`, whose descriptor declares the geometry keys (with the
    /// defaults in `fields`): geometry keys of another kind, missing points, bad radii and bad
    /// path data are errors at that key (`location` leads to it).
    public static func geometry(_ kind: Kind, _ p: DescribedParameters, fields: [ParameterDescriptor] = geometryFields)
        throws(ParameterError) -> ShapeGeometry {
        let values = p.values
        func given(_ name: String) -> Bool {
            values[name] != nil && values[name] != fields.first { $0.name == name }?.defaultValue
        }
        let own = keys[kind]!
        for other in Set(keys.values.flatMap { $0 }).subtracting(own).sorted() where given(other) {
            let owners = keys.filter { $0.value.contains(other) }.map(\.key.rawValue).sorted().joined(separator: ", ")
            throw ParameterError("belongs to shape \(owners), not \(kind.rawValue)", at: [.key(other)])
        }
        switch kind {
        case .line, .polyline, .polygon:
            guard let v = values.lengths("points") else {
                throw ParameterError("shape \(kind.rawValue) needs points: [x1, y1, x2, y2, …]", at: [.key("shape")])
            }
            let least = kind == .polygon ? 3 : 2
            guard v.count % 2 == 0, v.count >= 2 * least, kind != .line || v.count == 4 else {
                throw ParameterError(kind == .line ? "a line takes [x1, y1, x2, y2], got \(v.count) numbers"
                                     : "give x, y pairs, at least \(least) points; got \(v.count) numbers", at: [.key("points")])
            }
            return kind == .polygon ? .polygon(v) : .polyline(v)
        case .rect, .rounded_rect:
            var radii = [Length](repeating: Length(0), count: 4)
            if kind == .rounded_rect {
                let r = values.lengths("radius") ?? [Length(8)]
                guard r.count == 1 || r.count == 4, r.allSatisfy({ $0.value >= 0 }) else {
                    throw ParameterError("give one radius or four [top_left, top_right, bottom_right, bottom_left], each at least 0",
                                         at: [.key("radius")])
                }
                radii = r.count == 1 ? Array(repeating: r[0], count: 4) : r
            }
            return .rect(x: p.length("x"), y: p.length("y"), width: p.length("width"), height: p.length("height"), radii: radii)
        case .ellipse:
            let (c, r) = (p.point("center"), p.point("radii"))
            return .ellipse(center: LengthPoint(c.0, c.1), radii: LengthPoint(r.0, r.1))
        case .arc:
            guard let r = values.lengths("radius"), r.count == 1, r[0].value >= 0 else {
                throw ParameterError("an arc needs one radius in px or %, at least 0", at: [.key(values.lengths("radius") == nil ? "shape" : "radius")])
            }
            let c = p.point("center")
            return .arc(center: LengthPoint(c.0, c.1), radius: r[0], start: p.number("start"), end: p.number("end"))
        case .path:
            guard let d = values.text("d") else { throw ParameterError("shape path needs d: SVG path data", at: [.key("shape")]) }
            do { return .path(try SVGPathData.parse(d)) } catch { throw ParameterError(error.message, at: [.key("d")]) }
        }
    }

    /// The shape record `p`, checked: its geometry (``geometry(_:_:fields:)``), bad dashes and
    /// line widths are errors at that key.
    public static func shape(_ p: DescribedParameters) throws(ParameterError) -> DrawnShape {
        guard let kind = Kind(rawValue: p.choice("shape")) else { throw ParameterError("unknown shape") }
        let values = p.values
        let geometry = try geometry(kind, p, fields: fields)
        let dash = values.lengths("dash") ?? []
        if !dash.isEmpty, dash.contains(where: { $0.value < 0 }) || dash.allSatisfy({ $0.value == 0 }) {
            throw ParameterError("dash lengths must be at least 0 and not all 0, got \(ParameterValue.lengths(dash))", at: [.key("dash")])
        }
        let lineWidth = p.length("line_width")
        guard lineWidth.value >= 0 else { throw ParameterError("line_width must be at least 0, got \(lineWidth)", at: [.key("line_width")]) }
        let fill = values.color("fill")
        var stroke = values.color("stroke")
        if fill == nil, stroke == nil { stroke = .black }
        return DrawnShape(
            geometry: geometry, fill: fill, stroke: stroke,
            style: StrokeStyle(join: p.choice("join", as: StrokeStyle.Join.self),
                               miterLimit: p.number("miter_limit"), cap: p.choice("cap", as: StrokeStyle.Cap.self)),
            lineWidth: lineWidth, dash: dash,
            fillRule: p.choice("fill_rule", as: FillRule.self), opacity: p.number("opacity"), blend: p.blendMode())
    }
}
