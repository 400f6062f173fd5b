import CDarkroomDraw
import DarkroomCore

/// A gradient as the gradient filters and `blend`'s gradient layer read it: its geometry (px or
/// % of the image, resolved when the image's size is known), its stops and its extend rule.
/// cairo paints it for each strip (`PaintLayer`).
struct Gradient: Sendable {
    enum Shape: String, Sendable, CaseIterable {
        case linear, radial
    }

    enum Geometry: Sendable {
        case linear(start: (Length, Length), end: (Length, Length))
        case radial(center: (Length, Length), focus: (Length, Length)?, radius0: Length, radius1: Length)
    }

    let geometry: Geometry
    let stops: [dr_stop]
    let extend: Int32

    /// Reads a `shape` gradient from `p`. A key that `p`'s descriptor declares without a default
    /// (blend's, so a colour layer's report does not list them) takes the gradient filter's.
    init(_ shape: Shape, _ p: DescribedParameters) throws(ParameterError) {
        func value(_ name: String) -> ParameterValue {
            p.values[name] ?? GradientParameters.geometry(shape).first { $0.name == name }?.defaultValue
                ?? GradientParameters.paint.first { $0.name == name }!.defaultValue!
        }
        func point(_ name: String) -> (Length, Length) {
            guard case .point(let x, let y) = value(name) else { preconditionFailure("\(name) is a point") }
            return (x, y)
        }
        func length(_ name: String) -> Length {
            guard case .length(let l) = value(name) else { preconditionFailure("\(name) is a length") }
            return l
        }
        switch shape {
        case .linear:
            geometry = .linear(start: point("start"), end: point("end"))
        case .radial:
            let focus: (Length, Length)? = if case .point(let x, let y)? = p.values["focus"] { (x, y) } else { nil }
            geometry = .radial(center: point("center"), focus: focus, radius0: length("radius0"), radius1: length("radius1"))
        }
        guard case .records(let records) = value("stops") else { preconditionFailure("stops are records") }
        let stops = records.map { dr_stop($0.number("at") ?? 0, $0.color("color") ?? .black) }
        guard !stops.isEmpty else { throw ParameterError("give at least one stop", at: [.key("stops")]) }
        // In offset order; cairo keeps equal offsets in the order written: a hard edge.
        self.stops = stops.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        guard case .choice(let extendName) = value("extend") else { preconditionFailure("extend is a choice") }
        extend = Int32(GradientParameters.extendNames.firstIndex(of: extendName)!)
    }

    var isGrey: Bool { stops.allSatisfy { $0.r == $0.g && $0.g == $0.b } }

    /// The gradient over an image of `size`, as a layer covering all of it. Radii in % are of
    /// the image's width.
    func layer(in size: Size) -> PaintLayer {
        func at(_ p: (Length, Length)) -> (Double, Double) { (p.0.pixels(of: size.width), p.1.pixels(of: size.height)) }
        let kind: PaintLayer.Kind
        switch geometry {
        case .linear(let start, let end):
            kind = .linear(start: at(start), end: at(end))
        case .radial(let center, let focus, let radius0, let radius1):
            kind = .radial(center0: at(focus ?? center), radius0: radius0.pixels(of: size.width),
                           center1: at(center), radius1: radius1.pixels(of: size.width))
        }
        var layer = PaintLayer(kind: kind, coverage: Rect(size: size), isGrey: isGrey)
        layer.stops = stops
        layer.extend = extend
        return layer
    }
}

/// What the two gradient filters share: the gradient, the blend mode and the opacity.
struct GradientStyle: Sendable {
    let gradient: Gradient
    let blend: BlendMode
    let opacity: Double

    init(_ shape: Gradient.Shape, _ p: DescribedParameters) throws(ParameterError) {
        gradient = try Gradient(shape, p)
        blend = p.blendMode()
        opacity = p.number("opacity")
    }

    var isIdentity: Bool { opacity == 0 && blend.isBounded }

    /// The compositing kernel painting the gradient over an image of `size`.
    func plan(_ size: Size) -> KernelPlan {
        KernelPlan(CompositeKernel(size: size, layer: gradient.layer(in: size), mode: blend, opacity: Float(opacity)))
    }
}

/// The parameters of a gradient, declared once: each gradient filter takes its geometry and the
/// paint; `blend` takes both geometries and the paint, without defaults, for its gradient layer.
enum GradientParameters {
    static let extendNames = ["none", "pad", "repeat", "reflect"]

    static let stopFields = [
        ParameterDescriptor("at", .scalar, "Where the stop lies along the gradient, 0…1.", min: 0, max: 1, slider: 0...1, required: true),
        ParameterDescriptor("color", .color, "Its colour.", default: .color(.black)),
    ]

    /// Black to transparent: the dark fade under a caption.
    static let defaultStops = ParameterValue.records([
        ResolvedParameters(entries: [("at", .number(0)), ("color", .color(.black))]),
        ResolvedParameters(entries: [("at", .number(1)), ("color", .color(.transparent))]),
    ])

    static let linear: [ParameterDescriptor] = [
        ParameterDescriptor("start", .point, "Where offset 0 lies, in px or % of the image's size.",
                            default: .point(Length(50, percent: true), Length(0)), unit: "px"),
        ParameterDescriptor("end", .point, "Where offset 1 lies.", default: .point(Length(50, percent: true), Length(100, percent: true)), unit: "px"),
    ]

    static let radial: [ParameterDescriptor] = [
        ParameterDescriptor("center", .point, "The centre of the circles, in px or % of the image's size.",
                            default: .point(Length(50, percent: true), Length(50, percent: true)), unit: "px"),
        ParameterDescriptor("radius0", .length, "The inner circle's radius (offset 0), in px or % of the image's width.",
                            default: .length(Length(0)), min: 0, slider: 0...200, unit: "px"),
        ParameterDescriptor("radius1", .length, "The outer circle's radius (offset 1), in px or % of the image's width.",
                            default: .length(Length(50, percent: true)), min: 0, slider: 0...400, unit: "px"),
        ParameterDescriptor("focus", .point, "The inner circle's centre when it is not the centre (a focal point).", unit: "px"),
    ]

    static func geometry(_ shape: Gradient.Shape) -> [ParameterDescriptor] { shape == .linear ? linear : radial }

    static let paint: [ParameterDescriptor] = [
        ParameterDescriptor("stops", .records(stopFields), "Colours at offsets 0…1: [{at: 0, color: black}, {at: 1, color: \"#00000000\"}].",
                            default: defaultStops),
        ParameterDescriptor("extend", .choice(extendNames),
                            "Beyond the ends: none (transparent), pad (the end colours), repeat, reflect.", default: .choice("pad")),
    ]

    /// A gradient filter's own keys after its geometry.
    static let shared: [ParameterDescriptor] = paint + [
        .blendMode(),
        ParameterDescriptor("opacity", .scalar, "1 draws it as it is, 0 not at all.",
                            default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
    ]

    /// `blend`'s gradient layer: the kind, then every gradient key without its default (the
    /// gradient filters' defaults apply), so a colour or image layer's report lists none of them.
    static let layer: [ParameterDescriptor] = {
        let kind = ParameterDescriptor("gradient", .choice(Gradient.Shape.allCases.map(\.rawValue)),
                                       "The layer is a gradient: linear (start, end) or radial (center, radius0, radius1, focus), "
                                       + "with stops and extend, as the gradient filters take them.")
        return [kind] + (linear + radial + paint).map { key in
            var undefaulted = key
            if let d = key.defaultValue { undefaulted.description += " (default \(d))" }
            undefaulted.defaultValue = nil
            return undefaulted
        }
    }()

    /// The keys of the gradient shape that does not read them, when given (blend's `center` on a linear layer).
    static func misplaced(for shape: Gradient.Shape, in values: ResolvedParameters) -> String? {
        let other = geometry(shape == .linear ? .radial : .linear)
        return other.map(\.name).first { values.has($0) }
    }
}
