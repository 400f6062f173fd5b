/// One function per colour channel (R, G and B each its own), alpha untouched: the form of
/// levels and curves on one channel.
///
/// Unlike ``ToneCurve`` it may turn grey into colour, so it keeps grey only when built from one
/// function for all three (then it is a ``ToneCurve``, and fuses as one: use ``make(_:_:_:)``).
struct ChannelCurves: PointOperation {
    let red: @Sendable (Float) -> Float
    let green: @Sendable (Float) -> Float
    let blue: @Sendable (Float) -> Float

    init(red: @escaping @Sendable (Float) -> Float, green: @escaping @Sendable (Float) -> Float,
                blue: @escaping @Sendable (Float) -> Float) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        let r = red, g = green, b = blue
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = Pixel(r(p[0]), g(p[1]), b(p[2]), p[3])
        }
    }

    var preservesGrey: Bool { false }
    var preservesOpacity: Bool { true }
    var isChannelwise: Bool { true }
}

/// Which colour channels a per-channel filter (levels, curves) acts on.
enum ChannelSelection: String, Sendable, CaseIterable {
    case all, red, green, blue

    static let names = allCases.map(\.rawValue)

    /// `curve` on the selected channels, the others unchanged: a ``ToneCurve`` for all three (it
    /// keeps grey and fuses with gamma, posterize …), else ``ChannelCurves``.
    func operation(_ name: String, _ curve: @escaping @Sendable (Float) -> Float) -> any PointOperation {
        let same: @Sendable (Float) -> Float = { $0 }
        switch self {
        case .all: return ToneCurve(name, curve)
        case .red: return ChannelCurves(red: curve, green: same, blue: same)
        case .green: return ChannelCurves(red: same, green: curve, blue: same)
        case .blue: return ChannelCurves(red: same, green: same, blue: curve)
        }
    }
}
