/// The stretch behind `normalise` and `auto_levels` (vips `hist_norm` on percentiles,
/// ImageMagick `-normalize` / `-contrast-stretch`): the value below which `low` per cent of
/// the pixels lie becomes black, the one above which `100 − high` per cent lie becomes white,
/// linearly between. `on: luminance` measures the Rec. 709 luminance and stretches R, G and B
/// alike (colours keep their balance); `on: channels` measures and stretches each channel by
/// itself (removes a colour cast). The result is a colour matrix, so it fuses with its
/// neighbours.
struct PercentileStretch: Sendable {
    static let parameters: [ParameterDescriptor] = [
        ParameterDescriptor("low", .scalar, "Percentage of pixels that become black (or darker than the darkest kept).",
                            default: .number(0.5), min: 0, max: 50, slider: 0...5, unit: "%"),
        ParameterDescriptor("high", .scalar, "Percentile that becomes white.",
                            default: .number(99.5), min: 50, max: 100, slider: 95...100, unit: "%"),
        ParameterDescriptor("on", .choice(["luminance", "channels"]),
                            "luminance: one stretch for R, G and B from the luminance; channels: each channel its own.",
                            default: .choice("luminance")),
    ]

    let low: Double
    let high: Double
    let perChannel: Bool

    init(_ p: DescribedParameters) {
        low = p.number("low")
        high = p.number("high")
        perChannel = p.choice("on") == "channels"
    }

    /// The darkest and lightest values kept, from a 256-bin histogram.
    func range(of histogram: [Int]) -> (Double, Double) {
        let total = histogram.reduce(0, +)
        guard total > 0 else { return (0, 1) }
        let below = Double(total) * low / 100, above = Double(total) * (100 - high) / 100
        var lo = 0, seen = 0
        while lo < 255, Double(seen + histogram[lo]) <= below { seen += histogram[lo]; lo += 1 }
        var hi = 255
        seen = 0
        while hi > 0, Double(seen + histogram[hi]) <= above { seen += histogram[hi]; hi -= 1 }
        return (Double(lo) / 255, Double(max(hi, lo)) / 255)
    }

    /// The colour matrix for a measured image: `(c − lo) / (hi − lo)` per channel.
    func matrix(for statistics: ImageStatistics) -> ColorMatrix {
        let ranges = perChannel ? (0..<3).map { c in
            // At 0 % and 100 % the exact extremes, not their 1/255 bins.
            let (lo, hi) = range(of: statistics.histogram[c])
            return (low == 0 ? Double(statistics.minimum[c]) : lo, high == 100 ? Double(statistics.maximum[c]) : hi)
        } : [(Double, Double)](repeating: range(of: statistics.luminanceHistogram), count: 3)
        var m = [Double](repeating: 0, count: 9), bias = [0.0, 0, 0]
        for c in 0..<3 {
            let (lo, hi) = ranges[c]
            // A flat channel (lo = hi) is left alone: there is nothing to stretch.
            let k = hi > lo ? 1 / (hi - lo) : 1
            m[c * 4] = k
            bias[c] = hi > lo ? -lo * k : 0
        }
        return ColorMatrix.rgb(m, bias: bias)
    }
}

/// A measured colour matrix as the filter an analysis pass resolves to.
struct MeasuredMatrix: PointFilter {
    static let descriptor = FilterDescriptor(name: "measured_matrix", displayName: "Measured matrix", categories: [],
                                             description: "A colour matrix computed from a statistic.")
    let matrix: ColorMatrix
    init(matrix: ColorMatrix) { self.matrix = matrix }
    init(parameters: ResolvedParameters) { matrix = .identity }
    var pointOperations: [any PointOperation] { [matrix] }
}

/// A filter that is a ``PercentileStretch``: measures the histograms, resolves to its matrix.
protocol PercentileStretchFilter: AnalysisFilter {
    var stretch: PercentileStretch { get }
}

extension PercentileStretchFilter {
    var statisticRequest: StatisticRequest { StatisticRequest() }
    func resolved(with statistics: ImageStatistics) -> any Filter { MeasuredMatrix(matrix: stretch.matrix(for: statistics)) }
    var worstCase: any Filter { MeasuredMatrix(matrix: .identity) }
}

/// `normalise`: the percentile stretch (see ``PercentileStretch``), libvips' spelling.
struct NormaliseFilter: PercentileStretchFilter {
    static let descriptor = FilterDescriptor(
        name: "normalise", displayName: "Normalise", categories: ["color", "analysis"],
        description: "Stretches the tones so the low percentile becomes black and the high one white, measured on the "
            + "luminance (one stretch for all channels) or on each channel.",
        counterpart: "vips hist_norm / ImageMagick -normalize",
        parameters: PercentileStretch.parameters)

    let stretch: PercentileStretch

    init(parameters: ResolvedParameters) { stretch = PercentileStretch(Self.described(parameters)) }
}

/// `auto_levels`: the same stretch as ``NormaliseFilter``, under the name photo editors use;
/// by default per channel, which also removes a colour cast.
struct AutoLevelsFilter: PercentileStretchFilter {
    static let descriptor = FilterDescriptor(
        name: "auto_levels", displayName: "Auto Levels", categories: ["color", "analysis"],
        description: "Sets the black and white points of each channel from its histogram percentiles "
            + "(normalise with on=channels by default).",
        counterpart: "ImageMagick -auto-level / -contrast-stretch",
        parameters: PercentileStretch.parameters.map { p in
            var p = p
            if p.name == "on" { p.defaultValue = .choice("channels") }
            return p
        })

    let stretch: PercentileStretch

    init(parameters: ResolvedParameters) { stretch = PercentileStretch(Self.described(parameters)) }
}
