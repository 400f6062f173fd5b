/// A Gaussian blur as two 1-D passes, across then down: two pipeline kernels, so the rows the
/// downward pass shares between neighbouring strips are blurred across once and cached.
///
/// One piece of code serves `gaussian_blur` and `drop_shadow`. Edges are extended (clamp), so
/// a flat image stays flat up to its border. It works on whatever the pixels hold; on
/// premultiplied pixels colour and alpha blur alike, which is why transparent regions do not
/// bleed black into their neighbours.
public struct GaussianBlur: Sendable, Hashable {
    public let kernel: GaussianKernel

    /// The largest sigma `gaussian_blur` and `drop_shadow` accept (a 7433-tap kernel). Far past
    /// any visible effect; it exists so that a typo like 1e9 is refused at load time instead of
    /// building a kernel (and, for a shadow, a canvas-plus-halo) billions of pixels wide.
    public static let maximumSigma = 1000.0

    public init(sigma: Double) {
        kernel = GaussianKernel(sigma: sigma)
    }

    /// How far the blur reads past each output pixel.
    public var halo: Int { kernel.halfWidth }

    /// The two passes over an image of `size`, reading `source` (the plan's input or a step).
    func steps(for size: Size, from source: KernelPlan.Source, first: Int) -> [KernelPlan.Step] {
        [.init(BlurPass(kernel: kernel, size: size, across: true), sources: [source], label: "across"),
         .init(BlurPass(kernel: kernel, size: size, across: false), sources: [.step(first)], label: "down")]
    }
}

/// One 1-D pass of a ``GaussianBlur``. The kernel is symmetric, so mirrored taps share one
/// multiply.
struct BlurPass: PixelKernel {
    let kernel: GaussianKernel
    let size: Size
    let across: Bool

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] {
        let h = kernel.halfWidth
        return [across
            ? Rect(x: output.x - h, y: output.y, width: output.width + 2 * h, height: output.height)
            : Rect(x: output.x, y: output.y - h, width: output.width, height: output.height + 2 * h)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = kernel.halfWidth
        kernel.weights.withUnsafeBufferPointer { w in
            let c = w[h]
            for y in r.y..<r.maxY {
                let out = target.pointer(r.x, y)
                if across {
                    let centre = view.pointer(r.x, y)
                    for x in 0..<r.width { out[x] = c * centre[x] }
                    guard h > 0 else { continue }
                    for k in 1...h {
                        let wk = w[h + k], before = centre - k, after = centre + k
                        for x in 0..<r.width { out[x] += wk * (before[x] + after[x]) }
                    }
                } else {
                    let centre = view.pointer(r.x, y)
                    for x in 0..<r.width { out[x] = c * centre[x] }
                    guard h > 0 else { continue }
                    for k in 1...h {
                        let wk = w[h + k], before = view.pointer(r.x, y - k), after = view.pointer(r.x, y + k)
                        for x in 0..<r.width { out[x] += wk * (before[x] + after[x]) }
                    }
                }
            }
        }
    }
}
