import CDarkroomDraw
import DarkroomCore

/// Core Image's `CIRadialGradient` and Core Graphics' `CGContextDrawRadialGradient`: colours
/// blending from the circle (`focus`, `radius0`) to the circle (`center`, `radius1`).
public struct RadialGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "radial_gradient", displayName: "Radial Gradient", categories: ["composite"],
        description: "Draws a radial gradient (stops from an inner to an outer circle) over the image.",
        counterpart: "CGContextDrawRadialGradient, CIRadialGradient",
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
    let style: GradientStyle

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        let p = Self.described(parameters)
        center = p.point("center")
        focus = parameters.point("focus")
        (radius0, radius1) = (p.length("radius0"), p.length("radius1"))
        style = try GradientStyle(p)
    }

    public var isIdentity: Bool { style.isIdentity }
    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let c = (center.0.pixels(of: input.width), center.1.pixels(of: input.height))
        let f = focus.map { ($0.0.pixels(of: input.width), $0.1.pixels(of: input.height)) } ?? c
        return style.plan(.radial(center0: f, radius0: radius0.pixels(of: input.width), center1: c, radius1: radius1.pixels(of: input.width)), input)
    }
}
