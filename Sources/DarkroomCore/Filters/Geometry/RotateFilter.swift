/// Turns the image by `angle`, clockwise on screen (y points down). Quarter turns (90°, 180°,
/// 270°, and their negatives and multiples) move whole pixels, as `vips rot`: no resampling,
/// nothing lost. Any other angle is ``TransformFilter``'s rotation with `canvas: grow`, sampled
/// bilinearly, the corners filled with `background`.
struct RotateFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "rotate", displayName: "Rotate", categories: ["geometry"],
        description: """
            Turns the image clockwise by angle (90deg, 180deg, 270deg exactly, moving whole \
            pixels); any other angle grows the canvas to hold the whole turned image, sampled \
            bilinearly, with background in the corners.
            """,
        counterpart: "CGContextRotateCTM / vips rot",
        parameters: [
            ParameterDescriptor("angle", .angle, "Clockwise turn; write 90deg (a bare number is radians).",
                                default: .number(.pi / 2), slider: -Double.pi...Double.pi, identity: .number(0), unit: "rad"),
            ParameterDescriptor("background", .color, "Colour of the corners a free angle uncovers.", default: .color(.transparent)),
        ],
        examples: [
            "angle=90deg",
            "angle=270deg",
            "angle=30deg background=white",
        ])

    /// A quarter turn, done exactly; nil when the angle needs resampling.
    let exact: Orientation?
    /// The general rotation.
    let transform: TransformFilter

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        let angle = p.number("angle")
        // Quarter turns within a rounding error of a degree-to-radian conversion are exact.
        let quarters = (angle / (.pi / 2)).rounded()
        if abs(angle - quarters * .pi / 2) < 1e-9, abs(quarters) < 1e9 {
            exact = [Orientation.up, .rotate90, .rotate180, .rotate270][(Int(quarters) % 4 + 4) % 4]
        } else {
            exact = nil
        }
        transform = try TransformFilter(parameters: ResolvedParameters(entries: [
            ("rotate", .number(angle)), ("canvas", .choice("grow")), ("background", .color(p.color("background"))),
        ]))
    }

    var isIdentity: Bool { exact == .up }

    func outputSize(for input: Size) -> Size {
        if let exact { return exact.uprightSize(input) }
        return transform.outputSize(for: input)
    }

    func plan(for input: Size) -> KernelPlan {
        if let exact { return KernelPlan(OrientationKernel(orientation: exact, inputSize: input)) }
        return transform.plan(for: input)
    }
}
