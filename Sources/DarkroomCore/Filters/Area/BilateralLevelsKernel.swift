import CDarkroomKernels
import Foundation

/// The channel-by-channel bilateral filter by range levels (`dr_bilateral_levels`; Durand and
/// Dorsey's piecewise bilateral with Yang's observation that each level is a plain blur): for
/// levels `spacing` apart, each channel's range-weighted values and weights are blurred by the
/// separable spatial Gaussian, and a pixel takes its two sums by cubic interpolation between the
/// four levels around its value. Each level's blur is either the sampled spatial Gaussian (two
/// 1-D passes of 2·reach + 1 taps, linear in the radius) or, from ``boxesFromRadius`` on, five
/// extended boxes each way (`box_cascade.c`, a fixed cost per sample at any radius); fewer
/// levels the larger the noise level.
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
    /// The cascade of extended boxes that blurs each level, or nil for the taps of `spatial`
    /// (which then are the cascade's window, for the values summed directly).
    let boxes: dr_ebox?

    /// From this radius on, the levels are blurred by the cascade. Its fixed work (integer
    /// conversions, five running sums each way, a reach about 1.7 times the Gaussian's 2·radius)
    /// costs more than the taps below it.
    static let boxesFromRadius = 4.0

    /// The cascade standing in for the Gaussian of sigma `radius` cut at `reach`: the same
    /// variance (the cut Gaussian's, 0.77·radius² at 2·radius), so that the window's width does
    /// not jump at ``boxesFromRadius``.
    static func boxes(radius: Double, reach: Int) -> dr_ebox {
        var moment = 0.0, total = 0.0
        for d in -reach...reach {
            let d2 = Double(d * d), g = Foundation.exp(-d2 / (2 * radius * radius))
            moment += d2 * g
            total += g
        }
        let variance = moment / total
        var b = dr_ebox()
        dr_ebox_init(&b, variance.squareRoot())
        return b
    }

    /// The cascade's 1-D window, 2·reach + 1 weights.
    static func window(_ boxes: dr_ebox) -> [Double] {
        var b = boxes
        var weights = [Double](repeating: 0, count: 2 * Int(b.reach) + 1)
        dr_ebox_weights(&b, &weights)
        return weights
    }

    /// Levels per range sigma. The interpolation error of a sum falls as the fourth power of the
    /// spacing; at 0.6σ the filter stays within 1/255 of its direct sums
    /// (`testNoiseReductionIsTheChannelBilateralFormula`).
    static let spacingPerSigma = 0.6

    static func spacing(sigma: Double) -> Float { Float(spacingPerSigma * sigma) }

    /// Whether the levels cost less than the direct sums: per pixel and channel, a level costs an
    /// exponential and two passes over 2·reach + 1 taps for two sums (and an interpolation), or
    /// from ``boxesFromRadius`` on the boxes' fixed cost (the taps' at that radius), a neighbour
    /// in the direct sums an exponential and two sums; over 0…1 (a photo's values).
    static func pays(radius: Double, reach: Int, spacing: Float) -> Bool {
        let side = Double(2 * reach + 1)
        let levels = 1 / Double(spacing) + 4
        let level = radius >= boxesFromRadius ? 8 * (2 * boxesFromRadius).rounded(.up) + 28 : 4 * side + 24
        return levels * level < side * side * 18
    }

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: reach)] }

    /// With the cascade the rows above and below a band are blurred for it: bands as tall as the
    /// reach keep that work a bounded multiple of the band's own, at any radius.
    var startsOverItsReach: Bool { boxes != nil }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = reach
        _ = view.pointer(r.maxX + h - 1, r.maxY - 1 + h)  // the last pixel read, checked like every read
        let rows = (0..<(r.height + 2 * h)).map { k in Optional(floats(view.pointer(r.x - h, r.y - h + k))) }
        withUnsafePointer(to: boxes ?? dr_ebox()) { pointer in
            let box: UnsafePointer<dr_ebox>? = boxes == nil ? nil : pointer
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: dr_bilateral_levels_scratch(Int32(h), Int32(r.height), spacing, box),
                                                           alignment: 32)
            defer { scratch.deallocate() }
            spatial.withUnsafeBufferPointer { w in
                dr_bilateral_levels(rows, Int32(h), w.baseAddress!, rangeScale, spacing, box, Int32(r.width), Int32(r.height),
                                    floats(target.pointer(r.x, r.y)), 4 * rowStride(target), scratch)
            }
        }
    }
}
