/// CIBoxBlur: the mean of the (2·radius + 1)² square around each pixel, edges extended; the
/// same as `vips conv` with a matrix of ones of that size. Separable, so it runs as the
/// Gaussian's two passes: ``BlurPass`` with flat weights, or from ``runningSumRadius`` on a
/// running sum (``BoxCascadePass``).
struct BoxBlurFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "box_blur", displayName: "Box Blur", categories: ["blur"],
        description: "Averages the square of (2·radius + 1) pixels around each pixel (radius rounded to whole pixels); "
            + "edges are extended.",
        counterpart: "CIBoxBlur / vips conv with a matrix of ones",
        parameters: [
            ParameterDescriptor("radius", .scalar, "Pixels each side of the centre the box reaches.",
                                default: .number(10), min: 0, max: 1000, slider: 1...100, identity: .number(0), unit: "px"),
        ])

    /// Whole pixels each side.
    let reach: Int

    init(parameters: ResolvedParameters) {
        reach = Int(Self.described(parameters).number("radius").rounded())
    }

    var isIdentity: Bool { reach == 0 }

    func outputSize(for input: Size) -> Size { input }

    /// From this radius on, one running sum each way (``BoxCascadePass`` with a single box),
    /// whose cost per pixel does not grow with the radius, instead of 2·radius + 1 taps.
    static let runningSumRadius = 12

    func plan(for input: Size) -> KernelPlan {
        if reach >= Self.runningSumRadius {
            return KernelPlan([.init(BoxCascadePass(boxRadius: reach, size: input, across: false), label: "down"),
                               .init(BoxCascadePass(boxRadius: reach, size: input, across: true), sources: [.step(0)], label: "across")])
        }
        let weights = [Float](repeating: Float(1 / Double(2 * reach + 1)), count: 2 * reach + 1)
        return KernelPlan([.init(BlurPass(weights: weights, size: input, across: false), label: "down"),
                           .init(BlurPass(weights: weights, size: input, across: true), sources: [.step(0)], label: "across")])
    }
}
