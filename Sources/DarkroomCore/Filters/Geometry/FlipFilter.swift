/// The Drawing chapter's CTM flip: mirrors the image left–right (`horizontal`) or top–bottom
/// (`vertical`), moving whole pixels (no resampling), as `vips flip`.
struct FlipFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "flip", displayName: "Flip", categories: ["geometry"],
        description: "Mirrors the image: horizontal (left–right) or vertical (top–bottom). Exact, no resampling.",
        counterpart: "CGContext flip (scale -1) / vips flip",
        parameters: [
            ParameterDescriptor("direction", .choice(["horizontal", "vertical"]), "horizontal or vertical.",
                                default: .choice("horizontal")),
        ],
        examples: [
            "direction=vertical",
        ])

    var orientation: Orientation

    init(parameters: ResolvedParameters) throws(ParameterError) {
        orientation = Self.described(parameters).choice("direction") == "vertical" ? .flipVertical : .flipHorizontal
    }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { KernelPlan(OrientationKernel(orientation: orientation, inputSize: input)) }
}
