/// CIColorPosterize: each colour channel rounded to one of `levels` evenly spaced values,
/// `round(c·(levels − 1)) / (levels − 1)` on `c` clamped to 0…1 (ImageMagick's `-posterize`).
/// A tone curve, so it fuses with gamma and keeps grey and opacity.
struct PosterizeFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "posterize", displayName: "Color Posterize", categories: ["color", "stylize"],
        description: "Reduces each colour channel to a few levels, like a screen print.",
        counterpart: "CIColorPosterize",
        parameters: [
            ParameterDescriptor("levels", .integer, "Values per channel, black and white included.",
                                default: .number(6), min: 2, max: 256, slider: 2...30),
        ])

    var levels: Int

    init(parameters: ResolvedParameters) {
        levels = Int(Self.described(parameters).number("levels"))
    }

    var pointOperations: [any PointOperation] {
        let steps = Float(levels - 1)
        return [ToneCurve("posterize \(levels)") { (min(max($0, 0), 1) * steps).rounded() / steps }]
    }
}
