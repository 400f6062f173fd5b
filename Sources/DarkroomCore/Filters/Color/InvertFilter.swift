/// CIColorInvert: `1 − c` on each colour channel; alpha is kept.
struct InvertFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "invert", displayName: "Color Invert", categories: ["color"],
        description: "Inverts the colours (a negative); transparency is kept.",
        counterpart: "CIColorInvert")

    init(parameters: ResolvedParameters) {}

    var pointOperations: [any PointOperation] {
        [ColorMatrix.rgb([-1, 0, 0, 0, -1, 0, 0, 0, -1], bias: [1, 1, 1])]
    }
}
