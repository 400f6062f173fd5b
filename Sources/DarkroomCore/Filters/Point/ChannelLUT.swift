/// A 1-D lookup table per colour channel (a `.cube` file's LUT_1D): `entries` evenly spaced over
/// each channel's domain, linearly interpolated, inputs clamped to the domain; alpha untouched.
/// (Equalisation's `ChannelTables` looks a value's histogram bin up instead, no interpolation.)
///
/// Applied by its own loop over raw memory rather than as three ``ToneCurve`` closures, which
/// would cost a closure call per sample. When the three columns and
/// domains are the same it also offers itself as a ``curve``, so it still composes with
/// neighbouring tone curves (gamma, posterize) when the compiler fuses them.
struct ChannelLUT: PointOperation {
    /// Entries per channel.
    let size: Int
    /// The table's R column, then its G column, then its B column, as plain floats (narrow loads).
    let columns: [Float]
    let domainMin: SIMD3<Float>
    let domainMax: SIMD3<Float>

    init(entries: [SIMD3<Float>], domainMin: SIMD3<Float>, domainMax: SIMD3<Float>) {
        precondition(entries.count >= 2)
        size = entries.count
        columns = entries.map(\.x) + entries.map(\.y) + entries.map(\.z)
        self.domainMin = domainMin
        self.domainMax = domainMax
        let sameDomain = domainMin.x == domainMin.y && domainMin.y == domainMin.z
            && domainMax.x == domainMax.y && domainMax.y == domainMax.z
        preservesGrey = sameDomain && entries.allSatisfy { $0.x == $0.y && $0.y == $0.z }
    }

    /// The three columns and domains are the same, so a grey stays grey.
    let preservesGrey: Bool
    var preservesOpacity: Bool { true }
    var isChannelwise: Bool { true }

    var curve: ToneCurve? {
        guard preservesGrey else { return nil }
        let table = Array(columns.prefix(size)), lo = domainMin.x, last = Float(size - 1), scale = last / (domainMax.x - domainMin.x)
        return ToneCurve("1-D table") { v in
            var x = (v - lo) * scale
            if !(x > 0) { x = 0 } else if x > last { x = last }
            let i = min(Int(x), table.count - 2), f = x - Float(i)
            return table[i] + (table[i + 1] - table[i]) * f
        }
    }

    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        let n = size, last = Float(n - 1)
        let lo = domainMin, scale = SIMD3(repeating: last) / (domainMax - domainMin)
        columns.withUnsafeBufferPointer { buffer in
            let r = buffer.baseAddress!, g = r + n, b = g + n
            for i in 0..<count {
                let p = pixels[i]
                pixels[i] = Pixel(Self.lookup(r, p[0], lo.x, scale.x, last), Self.lookup(g, p[1], lo.y, scale.y, last),
                                  Self.lookup(b, p[2], lo.z, scale.z, last), p[3])
            }
        }
    }

    /// Scalar code on purpose: a SIMD float-to-integer conversion is generic in Swift and is not
    /// specialised here, so it would be far slower than the scalar one.
    @inline(__always)
    private static func lookup(_ t: UnsafePointer<Float>, _ v: Float, _ lo: Float, _ scale: Float, _ last: Float) -> Float {
        var x = (v - lo) * scale
        x = x > 0 ? x : 0  // NaN and below the domain to 0
        x = x < last ? x : last
        let k = min(Int(x), Int(last) - 1)
        return t[k] + (t[k + 1] - t[k]) * (x - Float(k))
    }
}
