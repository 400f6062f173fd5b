/// A smooth curve through points: piecewise cubic Hermite with the slopes of Fritsch and Butland
/// (1984), the PCHIP of MATLAB and SciPy (`scipy.interpolate.PchipInterpolator`). Chosen over a
/// natural cubic spline because it never overshoots: between two points the curve stays between
/// their values, so points that rise give a curve that rises and a flat stretch stays flat, which
/// is what someone dragging points on a curves dialog expects. Outside the first and last point
/// the curve holds their values.
struct MonotoneCurve: Sendable {
    let xs: [Double]
    let ys: [Double]
    /// The slope at each point.
    let slopes: [Double]

    /// `xs` strictly increasing, at least two points.
    init(xs: [Double], ys: [Double]) {
        precondition(xs.count == ys.count && xs.count >= 2)
        self.xs = xs
        self.ys = ys
        let n = xs.count
        let h = (0..<n - 1).map { xs[$0 + 1] - xs[$0] }
        let delta = (0..<n - 1).map { (ys[$0 + 1] - ys[$0]) / h[$0] }
        guard n > 2 else {
            slopes = [delta[0], delta[0]]
            return
        }
        var d = [Double](repeating: 0, count: n)
        for k in 1..<n - 1 where delta[k - 1] * delta[k] > 0 {
            // Weighted harmonic mean of the neighbouring secants.
            let w1 = 2 * h[k] + h[k - 1], w2 = h[k] + 2 * h[k - 1]
            d[k] = (w1 + w2) / (w1 / delta[k - 1] + w2 / delta[k])
        }
        d[0] = Self.endSlope(h[0], h[1], delta[0], delta[1])
        d[n - 1] = Self.endSlope(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3])
        slopes = d
    }

    /// The shape-preserving three-point end slope (SciPy's `_edge_case`).
    private static func endSlope(_ h0: Double, _ h1: Double, _ m0: Double, _ m1: Double) -> Double {
        let d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        if d.sign != m0.sign || m0 == 0 { return 0 }
        if m0.sign != m1.sign, abs(d) > abs(3 * m0) { return 3 * m0 }
        return d
    }

    /// The curve's value at `x`.
    func value(at x: Double) -> Double {
        if !(x > xs[0]) { return ys[0] }
        if x >= xs[xs.count - 1] { return ys[ys.count - 1] }
        var k = 0
        while xs[k + 1] < x { k += 1 }
        let h = xs[k + 1] - xs[k], t = (x - xs[k]) / h
        let t2 = t * t, t3 = t2 * t
        return (2 * t3 - 3 * t2 + 1) * ys[k] + (t3 - 2 * t2 + t) * h * slopes[k]
            + (-2 * t3 + 3 * t2) * ys[k + 1] + (t3 - t2) * h * slopes[k + 1]
    }
}
