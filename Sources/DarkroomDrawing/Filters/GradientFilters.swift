import CDarkroomDraw
import DarkroomCore

/// What the two gradient filters share: the stops, the extend rule, the blend mode and the
/// opacity; cairo paints the gradient for each strip (`PaintLayer`).
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

    static func extend(_ p: DescribedParameters) -> Int32 { Int32(extendNames.firstIndex(of: p.choice("extend"))!) }

    static func isGrey(_ stops: [dr_stop]) -> Bool { stops.allSatisfy { $0.r == $0.g && $0.g == $0.b } }

}

/// Core Graphics' `CGContextDrawLinearGradient`: colours blending along the line from `start`
/// to `end`, drawn over the image with a blend mode and an opacity.
public struct LinearGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "linear_gradient", displayName: "Linear Gradient", categories: ["composite"],
        description: "Draws a linear gradient (stops along a line from start to end) over the image.",
        parameters: [
            ParameterDescriptor("start", .point, "Where offset 0 lies, in px or % of the image's size.",
                                default: .point(Length(50, percent: true), Length(0)), unit: "px"),
            ParameterDescriptor("end", .point, "Where offset 1 lies.", default: .point(Length(50, percent: true), Length(100, percent: true)), unit: "px"),
        ] + GradientParameters.shared)

    let start: (Length, Length), end: (Length, Length)
    let stops: [dr_stop]
    let extend: Int32
    let blend: BlendMode
    let opacity: Double

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        (start, end) = (p.point("start"), p.point("end"))
        stops = try GradientParameters.stops(p)
        extend = GradientParameters.extend(p)
        blend = p.blendMode()
        opacity = p.number("opacity")
    }

    public var isIdentity: Bool { opacity == 0 && blend.isBounded }
    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let a = (start.0.pixels(of: input.width), start.1.pixels(of: input.height))
        let b = (end.0.pixels(of: input.width), end.1.pixels(of: input.height))
        var layer = PaintLayer(kind: .linear(start: a, end: b), coverage: Rect(size: input), isGrey: GradientParameters.isGrey(stops))
        layer.stops = stops
        layer.extend = extend
        return KernelPlan(CompositeKernel(size: input, layer: layer, mode: blend, opacity: Float(opacity)))
    }
}

/// Core Image's `CIRadialGradient` and Core Graphics' `CGContextDrawRadialGradient`: colours
/// blending from the circle (`focus`, `radius0`) to the circle (`center`, `radius1`).
public struct RadialGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "radial_gradient", displayName: "Radial Gradient", categories: ["composite"],
        description: "Draws a radial gradient (stops from an inner to an outer circle) over the image.",
        parameters: [
            ParameterDescriptor("center", .point, "The centre of the circles, in px or % of the image's size.",
                                default: .point(Length(50, percent: true), Length(50, percent: true)), unit: "px"),
            ParameterDescriptor("radius0", .length, "The inner circle's radius (offset 0), in px or % of the image's width.",
                                default: .length(Length(0)), min: 0, slider: 0...200, unit: "px"),
            ParameterDescriptor("radius1", .length, "The outer circle's radius (offset 1), in px or % of the image's width.",
                                default: .length(Length(50, percent: true)), min: 0, slider: 0...400, unit: "px"),
            ParameterDescriptor("focus", .point, "The inner circle's centre when it is not the centre (a focal point).", unit: "px"),
        ] + GradientParameters.shared)

    let center: (Length, Length), focus: (Length, Length)?
    let radius0: Length, radius1: Length
    let stops: [dr_stop]
    let extend: Int32
    let blend: BlendMode
    let opacity: Double

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        center = p.point("center")
        focus = parameters.point("focus")
        (radius0, radius1) = (p.length("radius0"), p.length("radius1"))
        stops = try GradientParameters.stops(p)
        extend = GradientParameters.extend(p)
        blend = p.blendMode()
        opacity = p.number("opacity")
    }

    public var isIdentity: Bool { opacity == 0 && blend.isBounded }
    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let c = (center.0.pixels(of: input.width), center.1.pixels(of: input.height))
        let f = focus.map { ($0.0.pixels(of: input.width), $0.1.pixels(of: input.height)) } ?? c
        var layer = PaintLayer(kind: .radial(center0: f, radius0: radius0.pixels(of: input.width), center1: c, radius1: radius1.pixels(of: input.width)),
                               coverage: Rect(size: input), isGrey: GradientParameters.isGrey(stops))
        layer.stops = stops
        layer.extend = extend
        return KernelPlan(CompositeKernel(size: input, layer: layer, mode: blend, opacity: Float(opacity)))
    }
}
