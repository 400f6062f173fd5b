import CDarkroomDraw
import DarkroomCore

/// Core Graphics' `CGContextDrawLinearGradient`: colours blending along the line from `start`
/// to `end`, drawn over the image with a blend mode and an opacity.
public struct LinearGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "linear_gradient", displayName: "Linear Gradient", categories: ["composite"],
        description: "Draws a linear gradient (stops along a line from start to end) over the image.",
        counterpart: "CGContextDrawLinearGradient, CILinearGradient",
        parameters: [
            ParameterDescriptor("start", .point, "Where offset 0 lies, in px or % of the image's size.",
                                default: .point(Length(50, percent: true), Length(0)), unit: "px"),
            ParameterDescriptor("end", .point, "Where offset 1 lies.", default: .point(Length(50, percent: true), Length(100, percent: true)), unit: "px"),
        ] + GradientParameters.shared)

    let start: (Length, Length), end: (Length, Length)
    let style: GradientStyle

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        let p = Self.described(parameters)
        (start, end) = (p.point("start"), p.point("end"))
        style = try GradientStyle(p)
    }

    public var isIdentity: Bool { style.isIdentity }
    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let a = (start.0.pixels(of: input.width), start.1.pixels(of: input.height))
        let b = (end.0.pixels(of: input.width), end.1.pixels(of: input.height))
        return style.plan(.linear(start: a, end: b), input)
    }
}
