/// CIColorThreshold: each colour channel becomes 1 where it is above the threshold and 0 where it
/// is not. A tone curve (the same step on R, G and B), so it keeps grey and opacity and fuses.
struct ThresholdFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "threshold", displayName: "Color Threshold", categories: ["color", "stylize"],
        description: "Makes each colour channel 1 above the threshold and 0 at or below it.",
        counterpart: "CIColorThreshold",
        parameters: [
            ParameterDescriptor("threshold", .scalar, "The channel value that separates 0 from 1.",
                                default: .number(0.5), min: 0, max: 1, slider: 0...1),
        ])

    var threshold: Double

    init(parameters: ResolvedParameters) {
        threshold = Self.described(parameters).number("threshold")
    }

    var pointOperations: [any PointOperation] {
        let t = Float(threshold)
        return [ToneCurve("threshold \(formatNumber(threshold))") { $0 > t ? 1 : 0 }]
    }
}
