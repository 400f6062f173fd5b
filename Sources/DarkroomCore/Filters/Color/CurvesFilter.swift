/// Curves: a smooth curve through points (x → y, both 0…1) applied to all colour channels or to
/// one, as CIToneCurve and every photo editor's curves dialog. The curve is a ``MonotoneCurve``
/// (PCHIP): it passes through every point and never overshoots them. On all channels it is a
/// tone curve, keeping grey and fusing with its neighbours.
struct CurvesFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "curves", displayName: "Curves", categories: ["color"],
        description: "Maps each channel through a smooth curve through points [x1, y1, x2, y2, …] in 0…1 (x rising).",
        counterpart: "CIToneCurve",
        parameters: [
            ParameterDescriptor("points", .numbers, "Pairs x, y in 0…1, x strictly rising, at least two pairs; "
                                + "[0, 0, 0.25, 0.2, 0.75, 0.8, 1, 1] is a gentle S.",
                                default: .numbers([0, 0, 1, 1]), identity: .numbers([0, 0, 1, 1])),
            ParameterDescriptor("channel", .choice(ChannelSelection.names), "The channels adjusted.", default: .choice("all")),
        ],
        examples: [
            "points=[0,0.1,0.3,0.2,0.7,0.9,1,1] channel=green",
            "points=[0,0,0.5,0.8,1,1]",
        ])

    var curve: MonotoneCurve
    var channel: ChannelSelection

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        channel = p.choice("channel")
        guard case .numbers(let v) = p["points"], v.count >= 4, v.count % 2 == 0 else {
            throw ParameterError("points: expected pairs x, y (an even count, at least two pairs), got \(p["points"])")
        }
        let xs = stride(from: 0, to: v.count, by: 2).map { v[$0] }, ys = stride(from: 1, to: v.count, by: 2).map { v[$0] }
        guard (v.allSatisfy { (0...1).contains($0) }) else {
            throw ParameterError("points: every x and y must be from 0 to 1, got \(p["points"])")
        }
        guard zip(xs, xs.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw ParameterError("points: the x values must rise strictly, got x = \(ParameterValue.numbers(xs))")
        }
        curve = MonotoneCurve(xs: xs, ys: ys)
    }

    var isIdentity: Bool { zip(curve.xs, curve.ys).allSatisfy { $0 == $1 } && curve.xs.first == 0 && curve.xs.last == 1 }

    var pointOperations: [any PointOperation] {
        let curve = curve
        return [channel.operation("curves") { Float(curve.value(at: Double($0))) }]
    }
}
