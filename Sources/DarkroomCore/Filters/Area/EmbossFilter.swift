/// Emboss as a convolution preset: the identity plus `strength` × the diagonal relief kernel
/// [[-2, -1, 0], [-1, 0, 1], [0, 1, 2]] (light from the top left), run by `convolve`'s kernel.
/// The relief sums to 0, so flat areas keep their colour and an opaque image stays opaque.
/// `vips conv` with the same matrix gives the same pixels.
struct EmbossFilter: RegionFilter {
    static let relief: [Double] = [-2, -1, 0, -1, 0, 1, 0, 1, 2]

    static let descriptor = FilterDescriptor(
        name: "emboss", displayName: "Emboss", categories: ["stylize"],
        description: "Raises edges as if lit from the top left: convolve with the identity plus strength × "
            + "[[-2,-1,0],[-1,0,1],[0,1,2]]; flat areas keep their colour.",
        counterpart: "vips conv (emboss matrix) / ImageMagick -emboss",
        parameters: [
            ParameterDescriptor("strength", .scalar, "How strongly the relief is added: 0 changes nothing.",
                                default: .number(1), min: 0, max: 20, slider: 0...3, identity: .number(0)),
        ])

    let kernel: ConvolutionKernel

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let strength = Self.described(parameters).number("strength")
        kernel = try ConvolutionKernel(values: Self.relief.enumerated().map { ($0.offset == 4 ? 1 : 0) + strength * $0.element },
                                       scale: 1)
    }

    var isIdentity: Bool { kernel.isIdentity }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { KernelPlan(kernel.pixelKernel(for: input)) }
}
