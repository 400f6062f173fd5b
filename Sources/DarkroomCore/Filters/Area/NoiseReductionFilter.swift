import CDarkroomKernels
import Foundation

/// An edge-preserving denoise: the bilateral filter (Tomasi and Manduchi, 1998), channel by
/// channel. In each channel a pixel becomes the average of its neighbours within `2·radius`
/// weighted by closeness in space (a Gaussian of sigma `radius`) and in that channel's value (a
/// Gaussian of sigma `noise_level`/√3): grain, which differs little from its neighbours, is
/// averaged away, while an edge, across which values differ by much more than the noise level,
/// keeps its sides apart.
///
/// Why channel by channel: the range weight is then one-dimensional, so it can be computed by
/// range levels (``BilateralLevelsKernel``), two blurs a level whatever the window's area, where
/// a weight on the RGB distance needs a level grid in three dimensions (thousands of levels).
/// The sigma of a channel is `noise_level`/√3 so that a grey difference (the same in R, G and
/// B: luminance grain, a luminance edge) weighs exactly as it would with sigma `noise_level` on
/// the RGB distance; a difference in one channel alone weighs more (its edge is kept sharper),
/// and channels without an edge are smoothed across another channel's edge.
///
/// From radius ``BilateralGridKernel/minimumRadius`` the levels run on a coarse spatial grid
/// (``BilateralGridKernel``), whose cost per pixel does not grow with the radius; below it the
/// full-resolution levels, exact in space, cost no more.
///
/// Why this filter: it is a single pass with a fixed halo (so it streams like any area filter)
/// and it has two parameters with a plain meaning. Non-local means denoises better but compares
/// a patch per neighbour (tens of times the cost); Core Image's CINoiseReduction publishes no
/// method; a median removes specks but posterises gradients.
struct NoiseReductionFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "noise_reduction", displayName: "Noise Reduction", categories: ["blur"],
        description: "Smooths grain and keeps edges (a bilateral filter, channel by channel): neighbours within 2·radius are "
            + "averaged, weighted by distance (sigma radius) and by their difference in the channel (sigma noise_level/√3, "
            + "so a grey difference weighs as an RGB distance of sigma noise_level). From radius 4 the distance weights are "
            + "taken on a grid of cells radius/2 wide, which keeps the cost flat in the radius and the result within 2/255 of the exact window.",
        counterpart: "CINoiseReduction (method: bilateral filter)",
        parameters: [
            ParameterDescriptor("noise_level", .scalar, "Differences of about this size (0–1, as an RGB distance of grey) are smoothed.",
                                default: .number(0.1), min: 0, max: 1, slider: 0...0.3, identity: .number(0)),
            ParameterDescriptor("radius", .scalar, "Spatial sigma in pixels; the window reaches 2·radius.",
                                default: .number(2), min: 0, max: 10, slider: 0.5...5, identity: .number(0), unit: "px"),
        ])

    let noiseLevel: Double
    let radius: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        noiseLevel = p.number("noise_level")
        radius = p.number("radius")
    }

    var reach: Int { Int((2 * radius).rounded(.up)) }

    /// The range sigma of each channel.
    var channelSigma: Double { noiseLevel / 3.0.squareRoot() }

    var isIdentity: Bool { noiseLevel == 0 || reach == 0 }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan {
        let h = reach
        // At its identity the filter copies (the weights would divide by zero).
        guard !isIdentity else { return KernelPlan(CopyKernel(inputSize: input, outputSize: input, origin: (0, 0))) }
        let twoSigma2 = 2 * radius * radius
        let rangeScale = Float(-1 / (2 * channelSigma * channelSigma))
        let spacing = BilateralLevelsKernel.spacing(sigma: channelSigma)
        if BilateralLevelsKernel.pays(reach: h, spacing: spacing) {
            let spatial = (-h...h).map { d in Float(exp(-Double(d * d) / twoSigma2)) }
            if radius >= BilateralGridKernel.minimumRadius {
                return KernelPlan(BilateralGridKernel(size: input, radius: radius, spatial: spatial, rangeScale: rangeScale, spacing: spacing))
            }
            return KernelPlan(BilateralLevelsKernel(size: input, reach: h, spatial: spatial, rangeScale: rangeScale, spacing: spacing))
        }
        // The direct sums take their two exponents in base 2, summed before one 2^x.
        var spatialLog2 = [Float]()
        for dy in -h...h {
            for dx in -h...h { spatialLog2.append(Float(-Double(dx * dx + dy * dy) / twoSigma2 / log(2.0))) }
        }
        return KernelPlan(BilateralKernel(size: input, reach: h, spatialLog2: spatialLog2,
                                          rangeScaleLog2: Float(-1 / (2 * channelSigma * channelSigma) / log(2.0))))
    }
}

/// The bilateral filter by its direct sums, channel by channel (`dr_bilateral_row`): the window's
/// (4·radius + 1)² neighbours each weigh three or four exponentials. Used where the range levels
/// would cost more: small windows with a small noise level (many levels).
struct BilateralKernel: PixelKernel {
    let size: Size
    let reach: Int
    /// (2·reach + 1)² spatial weights as base-2 exponents, row by row.
    let spatialLog2: [Float]
    /// log2 e / −2σ²: a channel's range weight is 2^(rangeScaleLog2 · Δ²).
    let rangeScaleLog2: Float

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: reach)] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, h = reach
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: dr_bilateral_row_scratch(Int32(h), Int32(r.width)))
        defer { scratch.deallocate() }
        spatialLog2.withUnsafeBufferPointer { w in
            for y in r.y..<r.maxY {
                _ = view.pointer(r.maxX + h - 1, y + h)  // the last pixel read, checked like every read
                let rows = (-h...h).map { dy in Optional(UnsafeRawPointer(view.pointer(r.x - h, y + dy)).assumingMemoryBound(to: Float.self)) }
                dr_bilateral_row(rows, Int32(h), w.baseAddress!, rangeScaleLog2, Int32(r.width), scratch,
                                 UnsafeMutableRawPointer(target.pointer(r.x, y)).assumingMemoryBound(to: Float.self))
            }
        }
    }
}
