import Foundation

/// A sampled, normalised 1-D Gaussian: the one blur kernel behind `gaussian_blur` and
/// `drop_shadow`.
///
/// Tap `i` (−h…h) weighs `exp(−i² / 2σ²)`, kept while that is at least ``cutoff`` of the peak,
/// then all taps are scaled to sum to 1 so that flat regions keep their value. This is
/// libvips' `gaussmat` with `min_ampl` = 0.001 (its `gaussblur` defaults to 0.2, which cuts the
/// bell at 1.8σ and visibly narrows it; at 0.001 the cut is at 3.7σ and loses < 0.03 % of the mass).
struct GaussianKernel: Sendable, Hashable {
    /// Taps whose unnormalised weight falls below this fraction of the centre are dropped.
    static let cutoff = 0.001

    /// The standard deviation in pixels.
    let sigma: Double
    /// `2·halfWidth + 1` weights summing to 1, symmetric about the centre.
    let weights: [Float]

    /// How many pixels the kernel reaches on each side of its centre.
    var halfWidth: Int { weights.count / 2 }

    /// A kernel for `sigma`; sigma 0 (or less) gives the identity kernel `[1]`.
    init(sigma: Double) {
        self.sigma = max(0, sigma)
        guard sigma > 0 else { weights = [1]; return }
        let h = Int((sigma * (2 * log(1 / Self.cutoff)).squareRoot()).rounded(.down))
        let raw = (-h...h).map { i in exp(-Double(i * i) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        weights = raw.map { Float($0 / total) }
    }
}
