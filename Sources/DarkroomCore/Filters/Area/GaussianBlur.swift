import CDarkroomKernels

/// A Gaussian blur as two 1-D passes, across then down: two pipeline kernels, so the rows the
/// downward pass shares between neighbouring strips are blurred across once and cached.
///
/// One piece of code serves `gaussian_blur`, `drop_shadow` and `clip`'s feather. Edges are extended (clamp), so
/// a flat image stays flat up to its border. It works on whatever the pixels hold; on
/// premultiplied pixels colour and alpha blur alike, which is why transparent regions do not
/// bleed black into their neighbours.
package struct GaussianBlur: Sendable, Hashable {
    let kernel: GaussianKernel

    /// The largest sigma `gaussian_blur` and `drop_shadow` accept (a 7433-tap kernel). Far past
    /// any visible effect; it exists so that a typo like 1e9 is refused at load time instead of
    /// building a kernel (and, for a shadow, a canvas-plus-halo) billions of pixels wide.
    static let maximumSigma = 1000.0

    /// From this sigma on, a shadow's alpha is blurred by five extended boxes in each direction
    /// (``BoxCascadePass``), whose cost per pixel does not grow with sigma (within 45 dB of the
    /// exact Gaussian from here on). The pipeline widens its bands to the boxes' reach (≈ 3.9σ),
    /// so the rows a band reads above and below it are not redone for every few rows of output.
    static let boxCascadeSigma = 4.0

    /// From this sigma on, colour blurs take the boxes too. Below it, on four channels, the
    /// sampled kernel's taps cost less than the boxes' fixed work (its integer conversions and
    /// five running sums each way).
    static let colourBoxCascadeSigma = 16.0

    package init(sigma: Double) {
        kernel = GaussianKernel(sigma: sigma)
    }

    func usesBoxes(alphaOnly: Bool) -> Bool {
        kernel.sigma >= (alphaOnly ? Self.boxCascadeSigma : Self.colourBoxCascadeSigma)
    }

    /// How far the blur reads past each output pixel.
    package var halo: Int { halo(alphaOnly: false) }

    /// How far the blur of alpha alone (a shadow) reads past each output pixel.
    func halo(alphaOnly: Bool) -> Int {
        guard usesBoxes(alphaOnly: alphaOnly) else { return kernel.halfWidth }
        var b = dr_ebox()
        dr_ebox_init(&b, kernel.sigma)
        return Int(b.reach)
    }

    /// The two passes over an image of `size`, reading `source` (the plan's input or a step):
    /// down first, so that an opaque 8-bit source is read as decoded (3 bytes a pixel) by the
    /// pass that reads each row many times, and the pass across reads float rows once each.
    /// With a `tint`, the source's alpha alone is blurred and the result is tint × alpha (a
    /// shadow: one channel's work, not four).
    package func steps(for size: Size, from source: KernelPlan.Source, first: Int, tint: Pixel? = nil) -> [KernelPlan.Step] {
        if usesBoxes(alphaOnly: tint != nil) {
            return [.init(BoxCascadePass(sigma: kernel.sigma, size: size, across: false, tint: tint), sources: [source], label: "down"),
                    .init(BoxCascadePass(sigma: kernel.sigma, size: size, across: true, tint: tint), sources: [.step(first)], label: "across")]
        }
        return [.init(BlurPass(weights: kernel.weights, size: size, across: false), sources: [source], label: "down"),
                .init(BlurPass(weights: kernel.weights, size: size, across: true, tint: tint), sources: [.step(first)], label: "across")]
    }
}

/// One 1-D pass of a ``GaussianBlur`` (or of any symmetric separable kernel: `box_blur`). The
/// kernel is symmetric, so mirrored taps share one multiply. The rows are summed in C (`dr_blur_across`, `dr_blur_down`), the sum for a block of
/// pixels kept in registers over all taps, with AVX2 and FMA where the CPU has them.
struct BlurPass: RGB8InputKernel {
    /// `2·halfWidth + 1` weights, symmetric about the centre.
    let weights: [Float]
    let size: Size
    let across: Bool
    /// Across only: the output is tint × the blurred alpha (see ``GaussianBlur/steps(for:from:first:tint:)``).
    var tint: Pixel? = nil

    var halfWidth: Int { weights.count / 2 }

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }
    var preservesOpacity: Bool { tint == nil }
    var preservesGrey: Bool { tint?.isGrey ?? true }

    func inputRegions(for output: Rect) -> [Rect] {
        let h = halfWidth
        return [across
            ? Rect(x: output.x - h, y: output.y, width: output.width + 2 * h, height: output.height)
            : Rect(x: output.x, y: output.y - h, width: output.width, height: output.height + 2 * h)]
    }

    /// The pass down can read an opaque 8-bit source as decoded: its rows are widened to float
    /// a cache-sized chunk at a time instead of the whole image passing through float bands.
    var acceptsRGB8Input: Bool { !across }

    func render(rgb8 view: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect, h = halfWidth, span = r.height + 2 * h
        // Rows past the top and bottom repeat the edge rows (the view holds only the image's).
        let rows = (0..<span).map { k in Optional(view.pointer(r.x, min(max(r.y - h + k, view.rect.y), view.rect.maxY - 1))) }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: (span + 1) * (3 * 32 + 4) + h + 1)
        let window = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: span)
        defer { scratch.deallocate(); window.deallocate() }
        weights.withUnsafeBufferPointer { all in
            dr_blur_down_rgb8(rows, Int32(r.height), all.baseAddress! + h, Int32(h), Int32(r.width),
                              scratch, window, floats(target.pointer(r.x, r.y)), 4 * rowStride(target))
        }
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = halfWidth
        weights.withUnsafeBufferPointer { all in
            let w = all.baseAddress! + h
            if across {
                for y in r.y..<r.maxY {
                    // Both ends through the view, so an undeclared read is caught as in Swift kernels.
                    _ = view.pointer(r.x - h, y)
                    _ = view.pointer(r.maxX + h, y)
                    dr_blur_across(floats(view.pointer(r.x, y)), w, Int32(h), Int32(r.width), floats(target.pointer(r.x, y)))
                    if let tint {
                        let out = target.pointer(r.x, y)
                        for i in 0..<r.width { out[i] = tint * out[i][3] }
                    }
                }
                return
            }
            let rows = haloRows(view, for: r, reach: h, left: 0)
            dr_blur_down(rows, Int32(r.height), w, Int32(h), Int32(r.width), floats(target.pointer(r.x, r.y)), 4 * rowStride(target))
        }
    }
}
