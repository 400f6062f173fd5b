import Foundation

/// Levels, as ImageMagick's `-level black,white,gamma` and Photoshop's input levels: the
/// range black…white is stretched to 0…1 (values outside it clip), then a gamma bends the
/// mid-tones, `((c − black) / (white − black))^(1/gamma)`, so gamma above 1 lightens. On all
/// colour channels (a tone curve, keeping grey) or on one.
struct LevelsFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "levels", displayName: "Levels", categories: ["color"],
        description: "Stretches black…white to the full range and bends mid-tones by gamma, on all channels or one.",
        counterpart: "ImageMagick -level (no Core Image or libvips operation)",
        parameters: [
            ParameterDescriptor("black", .scalar, "Input value that becomes 0.",
                                default: .number(0), min: 0, max: 1, slider: 0...0.5, identity: .number(0)),
            ParameterDescriptor("white", .scalar, "Input value that becomes 1 (above black).",
                                default: .number(1), min: 0, max: 1, slider: 0.5...1, identity: .number(1)),
            ParameterDescriptor("gamma", .scalar, "Mid-tone gamma: above 1 lightens, below 1 darkens.",
                                default: .number(1), min: 0.01, max: 100, slider: 0.25...4, identity: .number(1)),
            ParameterDescriptor("channel", .choice(ChannelSelection.names), "The channels adjusted.", default: .choice("all")),
        ],
        examples: [
            "black=0.1 white=0.8 gamma=1.4",
            "black=0.2 channel=blue",
        ])

    var black: Double
    var white: Double
    var gamma: Double
    var channel: ChannelSelection

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        black = p.number("black")
        white = p.number("white")
        gamma = p.number("gamma")
        channel = p.choice("channel")
        guard black < white else {
            throw ParameterError("black (\(formatNumber(black))) must be below white (\(formatNumber(white)))")
        }
    }

    var isIdentity: Bool { black == 0 && white == 1 && gamma == 1 }

    var pointOperations: [any PointOperation] {
        let lo = Float(black), range = Float(white - black), e = Float(1 / gamma)
        return [channel.operation("levels \(formatNumber(black))…\(formatNumber(white)) γ\(formatNumber(gamma))") { c in
            powf(min(max((c - lo) / range, 0), 1), e)
        }]
    }
}
