import CDarkroomDraw
import DarkroomCore

/// What the two gradient filters share, read from their parameters: the stops, the extend
/// rule, the blend mode and the opacity. cairo paints the gradient for each strip (`PaintLayer`).
struct GradientStyle: Sendable {
    let stops: [dr_stop]
    let extend: Int32
    let blend: BlendMode
    let opacity: Double

    init(_ p: DescribedParameters) throws(ParameterError) {
        stops = try GradientParameters.stops(p)
        extend = Int32(GradientParameters.extendNames.firstIndex(of: p.choice("extend"))!)
        blend = p.blendMode()
        opacity = p.number("opacity")
    }

    var isIdentity: Bool { opacity == 0 && blend.isBounded }

    /// The compositing kernel painting `kind` over an image of `size`.
    func plan(_ kind: PaintLayer.Kind, _ size: Size) -> KernelPlan {
        var layer = PaintLayer(kind: kind, coverage: Rect(size: size), isGrey: stops.allSatisfy { $0.r == $0.g && $0.g == $0.b })
        layer.stops = stops
        layer.extend = extend
        return KernelPlan(CompositeKernel(size: size, layer: layer, mode: blend, opacity: Float(opacity)))
    }
}

/// The parameters both gradient filters declare.
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

    static let shared: [ParameterDescriptor] = [
        ParameterDescriptor("stops", .records(stopFields), "Colours at offsets 0…1: [{at: 0, color: black}, {at: 1, color: \"#00000000\"}].",
                            default: defaultStops),
        ParameterDescriptor("extend", .choice(extendNames),
                            "Beyond the ends: none (transparent), pad (the end colours), repeat, reflect.", default: .choice("pad")),
        .blendMode(),
        ParameterDescriptor("opacity", .scalar, "1 draws it as it is, 0 not at all.",
                            default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
    ]

    /// The stops in offset order (cairo keeps equal offsets in the order written: a hard edge).
    static func stops(_ p: DescribedParameters) throws(ParameterError) -> [dr_stop] {
        let stops = p.records("stops").map { dr_stop($0.number("at"), $0.color("color")) }
        guard !stops.isEmpty else { throw ParameterError("stops: give at least one stop") }
        return stops.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

}
