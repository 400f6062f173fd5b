/// CIColorMonochrome: the image in shades of one colour. Apple does not publish the kernel; this
/// one follows GPUImage's GPUImageMonochromeFilter, written to match Core Image's look: the Rec.
/// 709 luma `l` overlaid with the colour, per channel `l < 0.5 ? 2·l·k : 1 − 2·(1 − l)·(1 − k)`
/// (black stays black, white stays white, mid-grey takes the colour), then mixed with the original
/// by `intensity`. It depends on the pixel's luma, so it is neither a matrix nor a curve.
struct MonochromeFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "monochrome", displayName: "Color Monochrome", categories: ["color", "stylize"],
        description: "Remaps the image to shades of one colour: black stays black, white stays white, mid-grey becomes the colour.",
        counterpart: "CIColorMonochrome",
        parameters: [
            ParameterDescriptor("color", .color, "The colour mid-grey becomes.", default: .color(RGBA(0.6, 0.45, 0.3))),
            ParameterDescriptor("intensity", .scalar, "0 leaves the image unchanged, 1 is fully monochrome.",
                                default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
        ])

    var color: RGBA
    var intensity: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        color = p.color("color")
        intensity = p.number("intensity")
    }

    var isIdentity: Bool { intensity == 0 }

    var pointOperations: [any PointOperation] {
        [Monochrome(color: Pixel(Float(color.r), Float(color.g), Float(color.b), 0), intensity: Float(intensity))]
    }

    struct Monochrome: PointOperation {
        var color: Pixel
        var intensity: Float

        func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
            let (wr, wg, wb) = ColorControlsFilter.luma
            let w = Pixel(Float(wr), Float(wg), Float(wb), 0)
            for i in 0..<count {
                let p = pixels[i]
                let l = (p * w).sum()
                let overlay = l < 0.5 ? 2 * l * color : 1 - 2 * (1 - l) * (1 - color)
                var q = p + (overlay - p) * intensity
                q[3] = p[3]
                pixels[i] = q
            }
        }

        /// A grey colour overlays every channel alike.
        var preservesGrey: Bool { color[0] == color[1] && color[1] == color[2] }
        var preservesOpacity: Bool { true }
        var isIdentity: Bool { intensity == 0 }
    }
}
