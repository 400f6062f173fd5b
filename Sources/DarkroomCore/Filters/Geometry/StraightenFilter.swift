import Foundation

/// CIStraightenFilter: turns the image by `angle` about its centre and keeps the largest upright
/// rectangle of the input's aspect ratio that lies wholly inside the turned image, so no corner
/// is left empty (a tilted horizon levelled without a background showing).
///
/// For a w × h image turned by θ, the rectangle s·w × s·h fits when its turned-back corners stay
/// inside the image: s = min(w / (w·|cos θ| + h·|sin θ|), h / (w·|sin θ| + h·|cos θ|)); the
/// output is ⌊s·w⌋ × ⌊s·h⌋, centred. Every output pixel centre then maps inside the input's
/// pixel centres, so the bilinear taps never reach past the image (no edge darkening, opacity
/// kept). Core Image goes on to scale the rectangle back up to the input's size; darkroom does
/// not enlarge (a `resize` after it does, when wanted). A positive angle turns clockwise on
/// screen, as `rotate` and `transform` do (Core Image's y points up, so its positive angle is
/// counter-clockwise: negate an angle taken from it). Streams like `transform`: small angles
/// read a few input rows per strip; larger ones keep the input whole in compact form.
struct StraightenFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "straighten", displayName: "Straighten", categories: ["geometry"],
        description: """
            Turns the image clockwise by angle about its centre and crops to the largest upright \
            rectangle of the same aspect ratio inside it, so no empty corner shows.
            """,
        counterpart: "CIStraightenFilter / vips rotate + crop",
        parameters: [
            ParameterDescriptor("angle", .angle, "Clockwise turn (write 2deg; a bare number is radians).",
                                default: .number(0), slider: -Double.pi...Double.pi, identity: .number(0), unit: "rad"),
        ])

    let angle: Double

    init(parameters: ResolvedParameters) {
        angle = Self.described(parameters).number("angle")
    }

    var isIdentity: Bool { sin(angle) == 0 && cos(angle) > 0 }

    /// The factor s of the kept rectangle (s·w × s·h) for an input of `size`.
    static func scale(for size: Size, angle: Double) -> Double {
        let c = abs(cos(angle)), s = abs(sin(angle)), w = Double(size.width), h = Double(size.height)
        return min(w / (w * c + h * s), h / (w * s + h * c))
    }

    func outputSize(for input: Size) -> Size {
        guard input.area > 0 else { return input }
        let s = Self.scale(for: input, angle: angle)
        // Rounded down, but not below a whole side by a rounding error (at 90°, cos θ is 6e-17).
        func side(_ n: Int) -> Int { max(1, min(n, Int(Double(n) * s + 1e-9))) }
        return Size(width: side(input.width), height: side(input.height))
    }

    func plan(for input: Size) -> KernelPlan {
        let out = outputSize(for: input)
        guard input.area > 0 else { return KernelPlan(CopyKernel(inputSize: input, outputSize: input, origin: (0, 0))) }
        // Output centre → origin, turn back, → input centre.
        let inverse = AffineTransform.translation(-Double(out.width) / 2, -Double(out.height) / 2)
            .then(.rotation(-angle))
            .then(.translation(Double(input.width) / 2, Double(input.height) / 2))
        return KernelPlan(StraightenKernel(
            turn: TransformKernel(inputSize: input, outputSize: out, inverse: inverse, background: .zero)))
    }
}

/// The turn of ``StraightenFilter``: ``TransformKernel``'s sampling, with every sample inside the
/// input, so an opaque input stays opaque (the transform's own kernel cannot promise that for
/// an arbitrary map).
struct StraightenKernel: RandomAccessKernel {
    let turn: TransformKernel

    var outputSize: Size { turn.outputSize }
    var inputs: [KernelInput] { turn.inputs }
    var preservesOpacity: Bool { true }
    var preservesGrey: Bool { true }
    func inputRegions(for output: Rect) -> [Rect] { turn.inputRegions(for: output) }
    func render(_ inputs: [RegionView], into target: RegionTarget) { turn.render(inputs, into: target) }
    func render(from input: CompactImage, into target: RegionTarget) { turn.render(from: input, into: target) }
}
