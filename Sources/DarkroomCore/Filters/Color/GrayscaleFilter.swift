/// Grey by Rec. 709 luma: every channel becomes `0.2126·r + 0.7152·g + 0.0722·b` (on the sRGB
/// values, as CIColorControls' saturation 0 and ``ColorControlsFilter`` compute it). A matrix, so
/// it fuses with its neighbours, and its output is grey, which encoders write as one channel.
struct GrayscaleFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "grayscale", displayName: "Grayscale", categories: ["color"],
        description: "Turns the image grey by Rec. 709 luma (0.2126 r + 0.7152 g + 0.0722 b); transparency is kept.",
        counterpart: "vips recomb with Rec. 709 weights (CIColorControls saturation 0)")

    init(parameters: ResolvedParameters) {}

    /// The luma matrix: every row the Rec. 709 weights.
    static var matrix: ColorMatrix {
        let (r, g, b) = ColorControlsFilter.luma
        return ColorMatrix.rgb([r, g, b, r, g, b, r, g, b])
    }

    var pointOperations: [any PointOperation] { [Self.matrix] }
}
