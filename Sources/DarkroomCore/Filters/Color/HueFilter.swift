import Foundation

/// CIHueAdjust: rotates colours about the grey axis (1, 1, 1) by `angle`; greys stay put.
struct HueFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "hue", displayName: "Hue Adjust", categories: ["color"],
        description: "Rotates hues by an angle about the grey axis.",
        counterpart: "CIHueAdjust",
        parameters: [
            ParameterDescriptor("angle", .angle, "Rotation; radians, or degrees with a deg suffix.",
                                default: .number(0), slider: -Double.pi...Double.pi, identity: .number(0), unit: "rad"),
        ])

    var angle: Double

    init(parameters: ResolvedParameters) {
        angle = Self.described(parameters).number("angle")
    }

    var isIdentity: Bool { angle.truncatingRemainder(dividingBy: 2 * .pi) == 0 }

    var pointOperations: [any PointOperation] {
        let c = cos(angle), s = sin(angle), t = (1 - c) / 3, r = sqrt(1.0 / 3) * s
        return [ColorMatrix.rgb([c + t, t - r, t + r,
                              t + r, c + t, t - r,
                              t - r, t + r, c + t])]
    }
}
