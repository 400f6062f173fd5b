/// CIUnsharpMask: `out = in + intensity · (in − blur(in))`, the blur a Gaussian of sigma
/// `radius` (as `gaussian_blur`). An area filter written against the kernel contract: the
/// shared two-pass blur, then one kernel that reads both the filter's input and the blur.
///
/// It works on premultiplied pixels, so colour is sharpened by coverage and a transparent
/// neighbour does not darken an edge; alpha is sharpened alike and kept within 0…1 (an opaque
/// image stays exactly opaque).
public struct UnsharpMaskFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
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
        ])

    public let intensity: Double
    private let blur: GaussianBlur

    public init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        intensity = p.number("intensity")
        blur = GaussianBlur(sigma: p.number("radius"))
    }

    public var isIdentity: Bool { intensity == 0 || blur.halo == 0 }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        KernelPlan(blur.steps(for: input, from: .input, first: 0)
            + [.init(UnsharpCombine(size: input, amount: Float(intensity)), sources: [.input, .step(1)], label: "combine")])
    }
}

/// `in + amount · (in − blurred)`, pixel by pixel, alpha clamped to 0…1. Where the image is
/// opaque the exact result's alpha is at least 1, so it is 1, whatever the blur's rounding.
struct UnsharpCombine: PixelKernel {
    let size: Size
    let amount: Float

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp), KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output, output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, k = amount
        for y in r.y..<r.maxY {
            let image = inputs[0].pointer(r.x, y), blurred = inputs[1].pointer(r.x, y), out = target.pointer(r.x, y)
            for x in 0..<r.width {
                var p = image[x] + k * (image[x] - blurred[x])
                p[3] = image[x][3] >= 1 ? 1 : min(max(p[3], 0), 1)
                out[x] = p
            }
        }
    }
}
