import CDarkroomDraw
import DarkroomCore

/// Core Graphics' `CGContextDrawLinearGradient`: colours blending along the line from `start`
/// to `end`, drawn over the image with a blend mode and an opacity.
public struct LinearGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "linear_gradient", displayName: "Linear Gradient", categories: ["composite"],
        description: "Draws a linear gradient (stops along a line from start to end) over the image.",
        counterpart: "CGContextDrawLinearGradient, CILinearGradient",
        parameters: GradientParameters.linear + GradientParameters.shared)

    let style: GradientStyle

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        style = try GradientStyle(.linear, Self.described(parameters))
    }

    public var isIdentity: Bool { style.isIdentity }
    public func outputSize(for input: Size) -> Size { input }
    public func plan(for input: Size) -> KernelPlan { style.plan(input) }
}
