/// CIWhitePointAdjust: white becomes `color`, every colour scaled alike, channel by channel in
/// linear light (Core Image's working space): `lin(out) = lin(c) · lin(color)`. The scale is a
/// diagonal matrix between two tone curves, so it fuses; it keeps grey when the colour is grey.
struct WhitePointFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "white_point", displayName: "White Point Adjust", categories: ["color"],
        description: "Maps white to the colour given and every other colour in proportion, in linear light.",
        counterpart: "CIWhitePointAdjust",
        parameters: [
            ParameterDescriptor("color", .color, "The colour white becomes (its alpha is ignored).",
                                default: .color(RGBA(1, 1, 1)), identity: .color(RGBA(1, 1, 1))),
        ])

    var color: RGBA

    init(parameters: ResolvedParameters) {
        color = Self.described(parameters).color("color")
    }

    var isIdentity: Bool { color.r == 1 && color.g == 1 && color.b == 1 }

    var pointOperations: [any PointOperation] {
        let lin = ToneCurve.srgbToLinear.map
        let (r, g, b) = (Double(lin(Float(color.r))), Double(lin(Float(color.g))), Double(lin(Float(color.b))))
        return [ToneCurve.srgbToLinear, ColorMatrix.rgb([r, 0, 0, 0, g, 0, 0, 0, b]), ToneCurve.linearToSRGB]
    }
}
