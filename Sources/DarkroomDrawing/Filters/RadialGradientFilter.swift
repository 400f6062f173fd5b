import CDarkroomDraw
import DarkroomCore

/// Core Image's `CIRadialGradient` and Core Graphics' `CGContextDrawRadialGradient`: colours
/// blending from the circle (`focus`, `radius0`) to the circle (`center`, `radius1`).
public struct RadialGradientFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "radial_gradient", displayName: "Radial Gradient", categories: ["composite"],
        description: "Draws a radial gradient (stops from an inner to an outer circle) over the image.",
        counterpart: "CGContextDrawRadialGradient, CIRadialGradient",
        parameters: GradientParameters.radial + GradientParameters.shared,
        examples: [
            "stops=[{at=0, color=yellow}, {at=1, color=#00000000}] radius1=40% focus=[30%,30%]",
            "radius0=3 radius1=12 extend=repeat blend=screen",
            "radius1=0 blend=destination_in",
        ])

    let style: GradientStyle

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.cairo)
        style = try GradientStyle(.radial, Self.described(parameters))
    }

    public var isIdentity: Bool { style.isIdentity }
    public func outputSize(for input: Size) -> Size { input }
    public func plan(for input: Size) -> KernelPlan { style.plan(input) }
}
