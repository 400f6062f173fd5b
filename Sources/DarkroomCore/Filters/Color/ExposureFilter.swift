import Foundation

/// CIExposureAdjust: `c·2^ev` in linear light, like a camera's exposure. The sRGB values are
/// decoded to linear, scaled and encoded again; all three steps are tone curves, so they compose
/// into one curve and fuse with gamma, posterize and other curves.
struct ExposureFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "exposure", displayName: "Exposure Adjust", categories: ["color"],
        description: "Brightens or darkens by stops, as a camera's exposure: c·2^ev in linear light.",
        counterpart: "CIExposureAdjust",
        parameters: [
            ParameterDescriptor("ev", .scalar, "Stops: +1 doubles the light, −1 halves it.",
                                default: .number(0), min: -10, max: 10, slider: -10...10, identity: .number(0), unit: "EV"),
        ])

    var ev: Double

    init(parameters: ResolvedParameters) {
        ev = Self.described(parameters).number("ev")
    }

    var isIdentity: Bool { ev == 0 }

    var pointOperations: [any PointOperation] {
        let gain = Float(pow(2, ev))
        return [ToneCurve.srgbToLinear, ToneCurve("exposure \(formatNumber(ev)) EV") { $0 * gain }, ToneCurve.linearToSRGB]
    }
}
