/// CIEdges: the strength of the edges at each pixel, per colour channel — the Sobel gradient's
/// magnitude `√(gx² + gy²)` times `intensity` (gx, gy: the 3×3 Sobel kernels, edges extended)
/// — on black; alpha is kept. Computed on premultiplied colour, so edges of a transparent shape
/// are edges of its coverage.
struct EdgesFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "edges", displayName: "Edges", categories: ["stylize"],
        description: "Shows the edges: each colour channel becomes intensity × the magnitude of its Sobel gradient; "
            + "flat areas turn black, alpha is kept.",
        counterpart: "CIEdges / vips sobel",
        parameters: [
            ParameterDescriptor("intensity", .scalar, "Multiplies the gradient's magnitude.",
                                default: .number(1), min: 0, max: 100, slider: 0...10),
        ])

    let intensity: Double

    init(parameters: ResolvedParameters) {
        intensity = Self.described(parameters).number("intensity")
    }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan { KernelPlan(SobelKernel(size: input, intensity: Float(intensity))) }
}

struct SobelKernel: PixelKernel {
    let size: Size
    let intensity: Float

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: 1)] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect
        for y in r.y..<r.maxY {
            let a = view.pointer(r.x - 1, y - 1), b = view.pointer(r.x - 1, y), c = view.pointer(r.x - 1, y + 1)
            let out = target.pointer(r.x, y)
            for x in 0..<r.width {
                let gx = (a[x + 2] + 2 * b[x + 2] + c[x + 2]) - (a[x] + 2 * b[x] + c[x])
                let gy = (c[x] + 2 * c[x + 1] + c[x + 2]) - (a[x] + 2 * a[x + 1] + a[x + 2])
                var p = intensity * (gx * gx + gy * gy).squareRoot()
                p[3] = b[x + 1][3]
                out[x] = p
            }
        }
    }
}
