/// CIUnsharpMask: `out = in + intensity · (in − blur(in))`, the blur a Gaussian of sigma
/// `radius` (as `gaussian_blur`); with ImageMagick's `-unsharp` threshold, channels that differ
/// from the blur by less than `threshold` are kept as they are. An area filter written against the kernel contract: the
/// shared two-pass blur, then one kernel that reads both the filter's input and the blur.
///
/// It works on premultiplied pixels, so colour is sharpened by coverage and a transparent
/// neighbour does not darken an edge; alpha is sharpened alike and kept within 0…1 (an opaque
/// image stays exactly opaque).
struct UnsharpMaskFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "unsharp_mask", displayName: "Unsharp Mask", categories: ["sharpen"],
        description: "Sharpens edges by adding back the difference between the image and a Gaussian blur of it "
            + "(sigma = radius), times the intensity.",
        counterpart: "CIUnsharpMask / vips sharpen",
        parameters: [
            ParameterDescriptor("radius", .scalar, "Standard deviation of the blur in pixels (sigma = radius).",
                                default: .number(2.5), min: 0, max: GaussianBlur.maximumSigma, slider: 0...100,
                                identity: .number(0), unit: "px"),
            ParameterDescriptor("intensity", .scalar, "How much of the difference is added: 0 changes nothing.",
                                default: .number(0.5), min: 0, max: 100, slider: 0...1, identity: .number(0)),
            ParameterDescriptor("threshold", .scalar,
                                "Differences from the blur smaller than this (0–1 per channel) are left alone, so flat areas "
                                    + "and fine grain are not sharpened. ImageMagick's -unsharp compares twice the difference: "
                                    + "its threshold t is darkroom's t/2.",
                                default: .number(0), min: 0, max: 1, slider: 0...0.1),
        ])

    let intensity: Double
    let threshold: Double
    private let blur: ReducedGaussian

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        intensity = p.number("intensity")
        threshold = p.number("threshold")
        blur = ReducedGaussian(sigma: p.number("radius"))
    }

    var isIdentity: Bool { intensity == 0 || blur.blur.halo == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan {
        blur.sharpening(input, amount: intensity, threshold: threshold, luminanceOnly: false)
    }
}

extension ReducedGaussian {
    /// Unsharp masking with this blur (over cells from sigma 12), then ``UnsharpCombine`` reading
    /// the input and the blur (`unsharp_mask`, and `sharpen` on luminance only).
    func sharpening(_ input: Size, amount: Double, threshold: Double = 0, luminanceOnly: Bool) -> KernelPlan {
        let blurred = steps(for: input, from: .input, first: 0)
        return KernelPlan(blurred
            + [.init(UnsharpCombine(size: input, amount: Float(amount), threshold: Float(threshold), luminanceOnly: luminanceOnly),
                     sources: [.input, .step(blurred.count - 1)], label: "combine")])
    }
}

/// `in + amount · (in − blurred)`, pixel by pixel, channels whose difference is below
/// `threshold` left alone, alpha clamped to 0…1. Where the image is
/// opaque the exact result's alpha is at least 1, so it is 1, whatever the blur's rounding.
/// With `luminanceOnly`, the detail's Rec. 709 luminance `Y(in − blurred)` is added to R, G and
/// B alike and alpha is kept (CISharpenLuminance: no colour fringes).
struct UnsharpCombine: PixelKernel {
    static let luminance = Pixel(0.2126, 0.7152, 0.0722, 0)
    let size: Size
    let amount: Float
    let threshold: Float
    let luminanceOnly: Bool

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp), KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output, output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, k = amount
        for y in r.y..<r.maxY {
            let image = inputs[0].pointer(r.x, y), blurred = inputs[1].pointer(r.x, y), out = target.pointer(r.x, y)
            if luminanceOnly {
                for x in 0..<r.width {
                    let detail = k * ((image[x] - blurred[x]) * Self.luminance).sum()
                    out[x] = image[x] + Pixel(detail, detail, detail, 0)
                }
                continue
            }
            for x in 0..<r.width {
                var d = image[x] - blurred[x]
                if threshold > 0 { for c in 0..<4 where abs(d[c]) < threshold { d[c] = 0 } }
                var p = image[x] + k * d
                p[3] = image[x][3] >= 1 ? 1 : min(max(p[3], 0), 1)
                out[x] = p
            }
        }
    }
}
