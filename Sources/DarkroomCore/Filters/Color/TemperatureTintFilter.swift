/// CITemperatureAndTint: white balance. The image is taken to have been lit by `temperature` /
/// `tint` (Core Image's `inputNeutral`) and is rendered as if lit by `target_temperature` /
/// `target_tint` (`inputTargetNeutral`): the colour of the first light becomes the colour of the
/// second. So a neutral above the target warms the picture (its bluish light is taken out) and
/// one below cools it, as in Core Image and Camera Raw.
///
/// In linear light: sRGB decoded, a Bradford chromatic adaptation between the two whites (see
/// ``WhiteBalance``), encoded again — a matrix between two tone curves, so it fuses.
struct TemperatureTintFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "temperature_tint", displayName: "Temperature and Tint", categories: ["color"],
        description: "White balance: renders an image lit by temperature/tint as if lit by target_temperature/target_tint.",
        counterpart: "CITemperatureAndTint",
        parameters: [
            kelvin("temperature", "Colour temperature of the light the image was taken in (inputNeutral.x)."),
            tint("tint", "Tint of that light, off the black-body locus (inputNeutral.y); + is magenta."),
            kelvin("target_temperature", "Colour temperature to render as (inputTargetNeutral.x)."),
            tint("target_tint", "Tint to render as (inputTargetNeutral.y)."),
        ])

    private static func kelvin(_ name: String, _ text: String) -> ParameterDescriptor {
        ParameterDescriptor(name, .scalar, text, default: .number(6500), min: 1667, max: 25000, slider: 2000...12000,
                            identity: .number(6500), unit: "K")
    }

    private static func tint(_ name: String, _ text: String) -> ParameterDescriptor {
        ParameterDescriptor(name, .scalar, text, default: .number(0), min: -150, max: 150, slider: -100...100, identity: .number(0))
    }

    var temperature, tint, targetTemperature, targetTint: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        temperature = p.number("temperature")
        tint = p.number("tint")
        targetTemperature = p.number("target_temperature")
        targetTint = p.number("target_tint")
    }

    var isIdentity: Bool { temperature == targetTemperature && tint == targetTint }

    var pointOperations: [any PointOperation] {
        let m = WhiteBalance.adaptation(from: WhiteBalance.chromaticity(kelvin: temperature, tint: tint),
                                        to: WhiteBalance.chromaticity(kelvin: targetTemperature, tint: targetTint))
        return [ToneCurve.srgbToLinear, ColorMatrix.rgb(m), ToneCurve.linearToSRGB]
    }
}
