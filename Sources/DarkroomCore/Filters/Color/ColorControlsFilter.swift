/// CIColorControls: saturation, then brightness, then contrast, as Core Image orders them.
///
/// saturation mixes each pixel with its Rec. 709 luma grey (`grey + s·(c − grey)`), brightness
/// adds `b`, contrast maps `(c − 0.5)·k + 0.5`. All three are affine, so they fuse into one matrix.
struct ColorControlsFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "color_controls", displayName: "Color Controls", categories: ["color"],
        description: "Adjusts saturation, brightness and contrast.",
        counterpart: "CIColorControls",
        parameters: [
            ParameterDescriptor("saturation", .scalar, "0 is grey, 1 unchanged, 2 doubly saturated.",
                                default: .number(1), min: 0, slider: 0...2, identity: .number(1)),
            ParameterDescriptor("brightness", .scalar, "Added to every channel.",
                                default: .number(0), min: -1, max: 1, slider: -1...1, identity: .number(0)),
            ParameterDescriptor("contrast", .scalar, "Stretch about mid-grey: (c − 0.5)·k + 0.5.",
                                default: .number(1), min: 0, slider: 0.25...4, identity: .number(1)),
        ])

    var saturation: Double
    var brightness: Double
    var contrast: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        saturation = p.number("saturation")
        brightness = p.number("brightness")
        contrast = p.number("contrast")
    }

    var isIdentity: Bool { saturation == 1 && brightness == 0 && contrast == 1 }

    /// Rec. 709 luma weights, shared with other filters that need a grey.
    static let luma: (r: Double, g: Double, b: Double) = (0.2126, 0.7152, 0.0722)

    var pointOperations: [any PointOperation] {
        let (lr, lg, lb) = Self.luma
        let s = saturation, k = contrast
        let sat = ColorMatrix.rgb([
            lr * (1 - s) + s, lg * (1 - s), lb * (1 - s),
            lr * (1 - s), lg * (1 - s) + s, lb * (1 - s),
            lr * (1 - s), lg * (1 - s), lb * (1 - s) + s,
        ])
        let bright = ColorMatrix.rgb([1, 0, 0, 0, 1, 0, 0, 0, 1], bias: [brightness, brightness, brightness])
        let offset = 0.5 - 0.5 * k
        let con = ColorMatrix.rgb([k, 0, 0, 0, k, 0, 0, 0, k], bias: [offset, offset, offset])
        return [sat.then(bright).then(con)]
    }
}
