/// CIVibrance: saturation that acts most on the least saturated colours, so skin tones and
/// already vivid colours change little. Apple does not publish the kernel; this is the formula of
/// GPUImage's GPUImageVibranceFilter, written to match it: with `avg` the mean and `mx` the largest
/// of R, G, B, each channel moves towards or away from `mx` by `(mx − avg)·(−3·amount)`:
/// `c + (mx − c)·(mx − avg)·(−3·amount)`.
///
/// A grey has `mx = avg`, so it stays grey; alpha is untouched.
struct VibranceFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "vibrance", displayName: "Vibrance", categories: ["color"],
        description: "Saturates dull colours more than vivid ones (negative amounts desaturate), sparing skin tones.",
        counterpart: "CIVibrance",
        parameters: [
            ParameterDescriptor("amount", .scalar, "−1 desaturates, 0 leaves the image unchanged, 1 saturates.",
                                default: .number(0), min: -1, max: 1, slider: -1...1, identity: .number(0)),
        ])

    var amount: Double

    init(parameters: ResolvedParameters) {
        amount = Self.described(parameters).number("amount")
    }

    var isIdentity: Bool { amount == 0 }

    var pointOperations: [any PointOperation] { [Vibrance(amount: Float(amount))] }

    /// The per-pixel step (not a matrix: its weight depends on the pixel).
    struct Vibrance: PointOperation {
        var amount: Float

        func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
            let k = -3 * amount
            for i in 0..<count {
                let p = pixels[i]
                let mx = max(p[0], p[1], p[2]), avg = (p[0] + p[1] + p[2]) / 3
                let t = (mx - avg) * k
                let q = p + (Pixel(mx, mx, mx, p[3]) - p) * t
                pixels[i] = Pixel(q[0], q[1], q[2], p[3])
            }
        }

        var preservesGrey: Bool { true }
        var preservesOpacity: Bool { true }
        var isIdentity: Bool { amount == 0 }
    }
}
