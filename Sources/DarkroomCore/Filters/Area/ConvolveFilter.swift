/// `vips conv`: convolution with a user's kernel, scale and offset (see ``ConvolutionKernel``).
struct ConvolveFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "convolve", displayName: "Convolve", categories: ["blur", "sharpen"],
        description: "Convolves with an odd square kernel like vips conv: (Σ k·p) / scale + offset on every channel, "
            + "edges extended. Example: kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] sharpens.",
        counterpart: "vips conv",
        parameters: [
            ParameterDescriptor("kernel", .matrix,
                                "The odd square matrix, as rows [[a, b, c], [d, e, f], [g, h, i]] or a flat list of n² numbers.",
                                required: true),
            ParameterDescriptor("scale", .scalar, "Divisor of the weighted sum; default the sum of the kernel, or 1 if that is 0.",
                                slider: 1...16),
            ParameterDescriptor("offset", .scalar, "Added after dividing, in channel units (1 = full range).",
                                default: .number(0), slider: -1...1, identity: .number(0)),
        ],
        examples: [
            "kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] scale=8",
            "kernel=[1,2,3,4,5,6,7,8,9,1,2,3,4,5,6,7,8,9,1,2,3,4,5,6,7]",
        ])

    let kernel: ConvolutionKernel

    init(parameters: ResolvedParameters) throws(ParameterError) {
        guard let values = parameters.numbers("kernel") else {
            throw ParameterError("needs a kernel, e.g. kernel=[[0, -1, 0], [-1, 5, -1], [0, -1, 0]]")
        }
        kernel = try ConvolutionKernel(values: values, scale: parameters.number("scale"),
                                       offset: Self.described(parameters).number("offset"))
    }

    var isIdentity: Bool { kernel.isIdentity }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { KernelPlan(kernel.pixelKernel(for: input)) }
}
