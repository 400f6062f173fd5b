/// CISharpenLuminance: unsharp masking of the luminance alone, so edges gain contrast without
/// colour fringes. `out = in + sharpness · (Y(in) − Y(blur(in)))` added alike to R, G and B,
/// with Y the Rec. 709 luminance and the blur a Gaussian of sigma `radius`. Y is linear, so
/// Y(in) − Y(blur(in)) is the luminance of the unsharp mask: one blur of the image serves.
struct SharpenLuminanceFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "sharpen", displayName: "Sharpen Luminance", categories: ["sharpen"],
        description: "Sharpens the luminance only: adds sharpness × (Y − Y of a Gaussian blur of sigma radius) "
            + "to R, G and B alike (Y with Rec. 709 weights), so colours do not fringe.",
        counterpart: "CISharpenLuminance",
        parameters: [
            ParameterDescriptor("sharpness", .scalar, "How much of the luminance detail is added: 0 changes nothing.",
                                default: .number(0.4), min: 0, max: 100, slider: 0...2, identity: .number(0)),
            ParameterDescriptor("radius", .scalar, "Standard deviation of the blur in pixels.",
                                default: .number(1.69), min: 0, max: GaussianBlur.maximumSigma, slider: 0...20,
                                identity: .number(0), unit: "px"),
        ])

    let sharpness: Double
    private let blur: ReducedGaussian

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        sharpness = p.number("sharpness")
        blur = ReducedGaussian(sigma: p.number("radius"))
    }

    var isIdentity: Bool { sharpness == 0 || blur.blur.halo == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { blur.sharpening(input, amount: sharpness, luminanceOnly: true) }
}
