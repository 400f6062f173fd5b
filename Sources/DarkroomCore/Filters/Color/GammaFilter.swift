/// CIGammaAdjust: `c^power` on each colour channel.
struct GammaFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "gamma", displayName: "Gamma Adjust", categories: ["color"],
        description: "Raises each colour channel to a power: above 1 darkens mid-tones, below 1 lightens.",
        counterpart: "CIGammaAdjust",
        parameters: [
            ParameterDescriptor("power", .scalar, "The exponent.",
                                default: .number(1), min: 0.01, max: 100, slider: 0.25...4, identity: .number(1)),
        ])

    var power: Double

    init(parameters: ResolvedParameters) {
        power = Self.described(parameters).number("power")
    }

    var isIdentity: Bool { power == 1 }
    var pointOperations: [any PointOperation] { [ToneCurve.power(power)] }
}
