import Foundation

/// The lookup-table form of a point operation: one function of a channel's value, applied alike
/// to R, G and B, alpha untouched. So it keeps grey and opacity by construction, and a run of
/// curves (gamma, then posterize, then a `.cube` 1-D LUT) composes into one call per channel.
///
/// The curve is kept as a function, not sampled into a table: a sampled table is inexact at the
/// steps of a posterize and where a gamma below 1 is steep near 0 (a 1024-entry table of
/// `c^0.25` is off by 15/255 near black), and the pipeline's values are floats, not 256 levels.
public struct ToneCurve: PointOperation {
    /// The value a channel takes, for the value it had.
    let map: @Sendable (Float) -> Float
    /// Names of the composed steps (for descriptions and tests).
    let names: [String]

    init(_ name: String, _ map: @escaping @Sendable (Float) -> Float) {
        self.map = map
        names = [name]
    }

    private init(names: [String], map: @escaping @Sendable (Float) -> Float) {
        self.names = names
        self.map = map
    }

    /// `self` first, then `next`, as one curve.
    func then(_ next: ToneCurve) -> ToneCurve {
        let first = map, second = next.map
        return ToneCurve(names: names + next.names) { second(first($0)) }
    }

    public func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        let f = map
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = Pixel(f(p[0]), f(p[1]), f(p[2]), p[3])
        }
    }

    public var preservesGrey: Bool { true }
    public var preservesOpacity: Bool { true }
    public var isChannelwise: Bool { true }
    public var curve: ToneCurve? { self }

    /// `c^power` on each colour channel, negative values clamped to 0 first (CIGammaAdjust).
    static func power(_ power: Double) -> ToneCurve {
        let e = Float(power)
        return ToneCurve("power \(power)") { powf(max($0, 0), e) }
    }
}
