/// One function per colour channel (R, G and B each its own), alpha untouched: the form of
/// levels and curves on one channel.
///
/// Unlike ``ToneCurve`` it may turn grey into colour, so it keeps grey only when built from one
/// function for all three (then it is a ``ToneCurve``, and fuses as one: use ``make(_:_:_:)``).
public struct ChannelCurves: PointOperation {
    public let red: @Sendable (Float) -> Float
    public let green: @Sendable (Float) -> Float
    public let blue: @Sendable (Float) -> Float

    public init(red: @escaping @Sendable (Float) -> Float, green: @escaping @Sendable (Float) -> Float,
                blue: @escaping @Sendable (Float) -> Float) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        let r = red, g = green, b = blue
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = Pixel(r(p[0]), g(p[1]), b(p[2]), p[3])
        }
    }

    public var preservesGrey: Bool { false }
    public var preservesOpacity: Bool { true }
    public var isChannelwise: Bool { true }
}

/// Which colour channels a per-channel filter (levels, curves) acts on.
public enum ChannelSelection: String, Sendable, CaseIterable {
    case all, red, green, blue

    public static let names = allCases.map(\.rawValue)

    /// `curve` on the selected channels, the others unchanged: a ``ToneCurve`` for all three (it
    /// keeps grey and fuses with gamma, posterize …), else ``ChannelCurves``.
    public func operation(_ name: String, _ curve: @escaping @Sendable (Float) -> Float) -> any PointOperation {
        let same: @Sendable (Float) -> Float = { $0 }
        switch self {
        case .all: return ToneCurve(name, curve)
        case .red: return ChannelCurves(red: curve, green: same, blue: same)
        case .green: return ChannelCurves(red: same, green: curve, blue: same)
        case .blue: return ChannelCurves(red: same, green: same, blue: curve)
        }
    }
}
