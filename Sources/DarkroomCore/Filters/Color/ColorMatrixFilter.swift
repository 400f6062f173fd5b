/// CIColorMatrix: each output channel a weighted sum of the input's R, G, B and A plus a bias,
/// `r' = r·R + g·G + b·B + a·A + bias.r` for the `r` vector (R, G, B, A) and so on, on straight
/// (unpremultiplied) colour. The matrix form itself, so it multiplies into its neighbours.
struct ColorMatrixFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "color_matrix", displayName: "Color Matrix", categories: ["color"],
        description: "Recombines channels: each output channel is its vector's weights of (r, g, b, a) plus its bias.",
        counterpart: "CIColorMatrix / vips recomb",
        parameters: [
            vector("r", "Weights of r, g, b, a in the output red.", [1, 0, 0, 0]),
            vector("g", "Weights of r, g, b, a in the output green.", [0, 1, 0, 0]),
            vector("b", "Weights of r, g, b, a in the output blue.", [0, 0, 1, 0]),
            vector("a", "Weights of r, g, b, a in the output alpha.", [0, 0, 0, 1]),
            vector("bias", "Added to r, g, b, a.", [0, 0, 0, 0]),
        ],
        examples: [
            "r=[0.5,0.3,0.2,0] a=[0,0,0,0.5] bias=[0.1,0,-0.1,0.2]",
        ])

    private static func vector(_ name: String, _ text: String, _ identity: [Double]) -> ParameterDescriptor {
        ParameterDescriptor(name, .numbers, text + " Four numbers.", default: .numbers(identity), identity: .numbers(identity))
    }

    var matrix: ColorMatrix

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        var rows = [[Double]]()
        for name in ["r", "g", "b", "a", "bias"] {
            guard case .numbers(let v) = p[name], v.count == 4 else {
                throw ParameterError("\(name): expected four numbers (for r, g, b, a), got \(p[name])")
            }
            rows.append(v)
        }
        matrix = ColorMatrix(rows[0] + rows[1] + rows[2] + rows[3], bias: rows[4])
    }

    var isIdentity: Bool { matrix.isIdentity }

    var pointOperations: [any PointOperation] { [matrix] }
}
