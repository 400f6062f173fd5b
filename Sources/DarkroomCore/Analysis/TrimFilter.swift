/// `vips find_trim` followed by the crop: the smallest rectangle holding every pixel that
/// differs from the background colour by more than `threshold` in some channel is kept, the
/// border around it cut away. The background is white by default, as vips'. An image that is
/// all border keeps its top-left pixel (an image cannot be empty). An analysis pass: the output
/// size follows the content, so the whole input is measured first.
public struct TrimFilter: AnalysisFilter {
    public static let descriptor = FilterDescriptor(
        name: "trim", displayName: "Trim", categories: ["geometry", "analysis"],
        description: "Crops away a border of the background colour: keeps the smallest rectangle holding every pixel "
            + "that differs from it by more than threshold (0–1 per channel; vips' 10 on 0–255 is 0.04).",
        counterpart: "vips find_trim + crop / ImageMagick -trim",
        parameters: [
            ParameterDescriptor("threshold", .scalar, "Largest difference per channel still counted as background (0–1).",
                                default: .number(10.0 / 255), min: 0, max: 1, slider: 0...0.3),
            ParameterDescriptor("background", .color, "The border's colour.", default: .color(RGBA(1, 1, 1))),
        ])

    public let threshold: Double
    public let background: RGBA

    public init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        threshold = p.number("threshold")
        background = p.color("background")
    }

    public var statisticRequest: StatisticRequest {
        StatisticRequest(background: Pixel(Float(background.r), Float(background.g), Float(background.b), Float(background.a)),
                         threshold: Float(threshold))
    }

    public func resolved(with statistics: ImageStatistics) -> any Filter {
        Cut(rect: statistics.boundingBox.isEmpty ? Rect(x: 0, y: 0, width: 1, height: 1) : statistics.boundingBox)
    }

    public var worstCase: any Filter { Cut(rect: nil) }

    /// The crop a trim resolves to; nil keeps everything.
    struct Cut: RegionFilter {
        static let descriptor = FilterDescriptor(name: "trim", displayName: "Trim", categories: [], description: "The measured crop.")
        let rect: Rect?
        init(rect: Rect?) { self.rect = rect }
        init(parameters: ResolvedParameters) { rect = nil }

        private func window(_ input: Size) -> Rect { rect?.intersection(Rect(size: input)) ?? Rect(size: input) }
        func outputSize(for input: Size) -> Size { window(input).size }
        func plan(for input: Size) -> KernelPlan {
            let r = window(input)
            return KernelPlan(CopyKernel(inputSize: input, outputSize: r.size, origin: (r.x, r.y)))
        }
    }
}
