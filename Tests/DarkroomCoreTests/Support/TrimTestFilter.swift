@testable import DarkroomCore

/// A trim in the manner of `vips find_trim`, written against the analysis contract: it asks for
/// the bounding box of what differs from a background colour, then crops to it, so its output
/// size follows the content. Its worst case (nothing trimmed) keeps the input's size.
struct TrimTestFilter: AnalysisFilter {
    static let descriptor = FilterDescriptor(
        name: "trim_test", displayName: "Trim (test)", categories: ["test"], description: "Test filter.",
        parameters: [
            ParameterDescriptor("background", .color, "Colour of the border.", default: .color(RGBA(1, 1, 1))),
            ParameterDescriptor("threshold", .scalar, "Largest difference still border.", default: .number(0.1),
                                min: 0, max: 1, slider: 0...0.5),
        ])

    let background: RGBA
    let threshold: Double

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        background = p.color("background")
        threshold = p.number("threshold")
    }

    var statisticRequest: StatisticRequest {
        StatisticRequest(background: Pixel(Float(background.r), Float(background.g), Float(background.b), Float(background.a)),
                         threshold: Float(threshold))
    }

    func resolved(with statistics: ImageStatistics) -> any Filter {
        // All border: keep one pixel, as vips find_trim's caller would.
        let box = statistics.boundingBox.isEmpty ? Rect(x: 0, y: 0, width: 1, height: 1) : statistics.boundingBox
        return Cut(rect: box)
    }

    var worstCase: any Filter { Cut(rect: nil) }

    /// The crop a trim resolves to; nil keeps everything.
    struct Cut: RegionFilter {
        static let descriptor = FilterDescriptor(name: "trim_test", displayName: "Trim (test)", categories: ["test"], description: "")
        let rect: Rect?
        init(rect: Rect?) { self.rect = rect }
        init(parameters: ResolvedParameters) { rect = nil }
        func outputSize(for input: Size) -> Size { (rect?.intersection(Rect(size: input)) ?? Rect(size: input)).size }
        func plan(for input: Size) -> KernelPlan {
            let r = rect?.intersection(Rect(size: input)) ?? Rect(size: input)
            return KernelPlan(CopyKernel(inputSize: input, outputSize: r.size, origin: (r.x, r.y)))
        }
    }
}
