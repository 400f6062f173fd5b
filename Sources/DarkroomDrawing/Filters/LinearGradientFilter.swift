import CDarkroomDraw
import DarkroomCore

/// Core Graphics' `CGContextDrawLinearGradient`: colours blending along the line from `start`
/// to `end`, drawn over the image with a blend mode and an opacity.
public struct LinearGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "linear_gradient", displayName: "Linear Gradient", categories: ["composite"],
        description: "Draws a linear gradient (stops along a line from start to end) over the image.",
        counterpart: "CGContextDrawLinearGradient, CILinearGradient",
        parameters: GradientParameters.linear + GradientParameters.shared,
        examples: [
            "stops=[{at=0, color=red}, {at=1, color=#0000ff80}] start=[10%,20%] end=[90%,70%] extend=reflect",
            "stops=[{at=0.2, color=random}, {at=0.8, color=white}] blend=multiply opacity=0.7 extend=none",
            "stops=[{at=0, color=white}] blend=source_in",
        ])

    let style: GradientStyle

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        style = try GradientStyle(.linear, Self.described(parameters))
    }

    public var isIdentity: Bool { style.isIdentity }
    public func outputSize(for input: Size) -> Size { input }
    public func plan(for input: Size) -> KernelPlan { style.plan(input) }
}
