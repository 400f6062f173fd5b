/// `vips find_trim` followed by the crop: the smallest rectangle holding every pixel that
/// differs from the background colour by more than `threshold` in some channel is kept, the
/// border around it cut away. Without a `background`, the border's colour is the image's
/// top-left pixel (ImageMagick's `-trim` starts from the corners too; vips 8.14's `find_trim`
/// assumes white unless told, so give `background: white` for exactly its default). An image
/// that is all border keeps its top-left pixel (an image cannot be empty). An analysis pass: the
/// output size follows the content, so the whole input is measured first (per row and per
/// column extremes, so the background may be chosen after measuring).
struct TrimFilter: AnalysisFilter {
    static let descriptor = FilterDescriptor(
        name: "trim", displayName: "Trim", categories: ["geometry", "analysis"],
        description: "Crops away a border of the background colour (by default the top-left pixel's): keeps the smallest "
            + "rectangle holding every pixel that differs from it by more than threshold (0–1 per channel; vips' 10 on 0–255 is 0.04).",
        counterpart: "vips find_trim + crop / ImageMagick -trim",
        parameters: [
            ParameterDescriptor("threshold", .scalar, "Largest difference per channel still counted as background (0–1).",
                                default: .number(10.0 / 255), min: 0, max: 1, slider: 0...0.3),
            ParameterDescriptor("background", .color, "The border's colour; without it, the top-left pixel's."),
        ])

    let threshold: Double
    /// nil: the top-left pixel's colour.
    let background: RGBA?

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        threshold = p.number("threshold")
        background = parameters.color("background")
    }

    var statisticRequest: StatisticRequest {
        StatisticRequest(lineExtremes: true, distribution: false)
    }

    func resolved(with statistics: ImageStatistics) -> any Filter {
        let colour = background.map { Pixel(Float($0.r), Float($0.g), Float($0.b), Float($0.a)) } ?? statistics.topLeft ?? .zero
        let box = statistics.boundingBox(differingFrom: colour, by: Float(threshold))
        return MeasuredCrop(rect: box.isEmpty ? Rect(x: 0, y: 0, width: 1, height: 1) : box)
    }

    var worstCase: any Filter { MeasuredCrop(rect: nil) }
}
