/// CISepiaTone: the classic sepia matrix, mixed with the original by `intensity`.
///
/// Matrix rows (R, G, B): [0.393 0.769 0.189], [0.349 0.686 0.168], [0.272 0.534 0.131].
struct SepiaFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "sepia", displayName: "Sepia Tone", categories: ["color", "stylize"],
        description: "Maps colours to brown tones, like an old photograph.",
        counterpart: "CISepiaTone",
        parameters: [
            ParameterDescriptor("intensity", .scalar, "0 leaves the image unchanged, 1 is full sepia.",
                                default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
        ])

    static let matrix: [Double] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]

    var intensity: Double

    init(parameters: ResolvedParameters) {
        intensity = Self.described(parameters).number("intensity")
    }

    var isIdentity: Bool { intensity == 0 }

    var pointOperations: [any PointOperation] {
        let t = intensity
        let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        return [ColorMatrix.rgb(zip(identity, Self.matrix).map { $0 * (1 - t) + $1 * t })]
    }
}
