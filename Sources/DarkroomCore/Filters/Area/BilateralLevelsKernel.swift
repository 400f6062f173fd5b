import CDarkroomKernels

/// The channel-by-channel bilateral filter by range levels (`dr_bilateral_levels`; Durand and
/// Dorsey's piecewise bilateral with Yang's observation that each level is a plain blur): for
/// levels `spacing` apart, each channel's range-weighted values and weights are blurred by the
/// separable spatial Gaussian, and a pixel takes its two sums by cubic interpolation between the
/// four levels around its value. The cost is two 1-D passes of 2·reach + 1 taps for every level
/// and channel: linear in the radius where the direct sums are quadratic, and fewer levels the
/// larger the noise level.
///
/// The levels cover −0.5…1.5 (values past them, rare after a colour step, are summed directly),
/// and each band computes only the levels its pixels need.
struct BilateralLevelsKernel: PixelKernel {
    let size: Size
    let reach: Int
    /// 2·reach + 1 one-dimensional spatial weights (the 2-D weight is the product of two).
    let spatial: [Float]
    /// −1 / 2σ², σ the range sigma of a channel.
    let rangeScale: Float
    /// Between levels, in channel values.
    let spacing: Float

    /// Levels per range sigma. The interpolation error of a sum falls as the fourth power of the
    /// spacing; at 0.6σ the filter stays within 1/255 of its direct sums
    /// (`testNoiseReductionIsTheChannelBilateralFormula`).
    static let spacingPerSigma = 0.6

    static func spacing(sigma: Double) -> Float { Float(spacingPerSigma * sigma) }

    /// Whether the levels cost less than the direct sums: per pixel and channel, a level costs an
    /// exponential and two passes over 2·reach + 1 taps for two sums (and an interpolation), a
    /// neighbour in the direct sums an exponential and two sums; over 0…1 (a photo's values).
    static func pays(reach: Int, spacing: Float) -> Bool {
        let side = Double(2 * reach + 1)
        let levels = 1 / Double(spacing) + 4
        return levels * (4 * side + 24) < side * side * 18
    }

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: reach)] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = reach
        _ = view.pointer(r.maxX + h - 1, r.maxY - 1 + h)  // the last pixel read, checked like every read
        let rows = haloRows(view, for: r, reach: h, left: h)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: dr_bilateral_levels_scratch(Int32(h), Int32(r.height), spacing),
                                                       alignment: 32)
        defer { scratch.deallocate() }
        spatial.withUnsafeBufferPointer { w in
            dr_bilateral_levels(rows, Int32(h), w.baseAddress!, rangeScale, spacing, Int32(r.width), Int32(r.height),
                                floats(target.pointer(r.x, r.y)), 4 * rowStride(target), scratch)
        }
    }
}
