/// CIGaussianBlur / `vips gaussblur`.
///
/// `radius` is the standard deviation in pixels, as in Core Image (sigma = radius); libvips'
/// `gaussblur in out σ` with `min_ampl` 0.001 computes the same blur. See ``GaussianKernel``
/// for where the bell is cut and ``GaussianBlur`` for the edges.
struct GaussianBlurFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "gaussian_blur", displayName: "Gaussian Blur", categories: ["blur"],
        description: "Blurs with a Gaussian whose standard deviation (sigma) is the radius, as in Core Image; "
            + "it reaches about 3.7 sigma each side (from sigma 12 computed over cells of up to 8 px, from 16 by five running boxes: "
            + "its cost does not grow with sigma); edges are extended.",
        counterpart: "CIGaussianBlur / vips gaussblur",
        parameters: [
            ParameterDescriptor("radius", .scalar, "Standard deviation of the Gaussian in pixels (sigma = radius).",
                                default: .number(10), min: 0, max: GaussianBlur.maximumSigma, slider: 0...100, identity: .number(0), unit: "px"),
        ],
        examples: [
            "radius=0.7",
            "radius=6",
        ])

    let radius: Double
    private let blur: ReducedGaussian

    init(parameters: ResolvedParameters) {
        radius = Self.described(parameters).number("radius")
        blur = ReducedGaussian(sigma: radius)
    }

    var isIdentity: Bool { blur.blur.halo == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { KernelPlan(blur.steps(for: input, from: .input, first: 0)) }
}
