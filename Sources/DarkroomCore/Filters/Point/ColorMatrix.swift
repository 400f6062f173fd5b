/// An affine colour map: `out = M · (r, g, b, a) + bias`, rows for R, G, B, A.
///
/// Kept in Double so that a long chain of fused adjustments does not accumulate error.
public struct ColorMatrix: PointOperation, Hashable {
    /// Row-major 4×4.
    var m: [Double]
    var bias: [Double]

    init(_ m: [Double], bias: [Double] = [0, 0, 0, 0]) {
        precondition(m.count == 16 && bias.count == 4)
        self.m = m
        self.bias = bias
    }

    public static let identity = ColorMatrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// A matrix acting on RGB only, alpha untouched.
    static func rgb(_ m3: [Double], bias: [Double] = [0, 0, 0]) -> ColorMatrix {
        precondition(m3.count == 9 && bias.count == 3)
        return ColorMatrix([m3[0], m3[1], m3[2], 0, m3[3], m3[4], m3[5], 0, m3[6], m3[7], m3[8], 0, 0, 0, 0, 1],
                           bias: bias + [0])
    }

    /// `self` applied first, then `next`.
    func then(_ next: ColorMatrix) -> ColorMatrix {
        var out = [Double](repeating: 0, count: 16)
        var b = [Double](repeating: 0, count: 4)
        for i in 0..<4 {
            for j in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += next.m[i * 4 + k] * m[k * 4 + j] }
                out[i * 4 + j] = s
            }
            var s = next.bias[i]
            for k in 0..<4 { s += next.m[i * 4 + k] * bias[k] }
            b[i] = s
        }
        return ColorMatrix(out, bias: b)
    }

    public var isIdentity: Bool {
        zip(m, ColorMatrix.identity.m).allSatisfy { abs($0 - $1) < 1e-12 } && bias.allSatisfy { abs($0) < 1e-12 }
    }

    /// Whether a grey pixel (R = G = B) stays grey: the three colour rows have the same sum over
    /// R, G, B, the same alpha weight and the same bias. Sepia and hue turn grey into colour;
    /// brightness, contrast and invert do not.
    public var preservesGrey: Bool {
        func row(_ i: Int) -> [Double] { [m[4 * i] + m[4 * i + 1] + m[4 * i + 2], m[4 * i + 3], bias[i]] }
        let red = row(0)
        return [row(1), row(2)].allSatisfy { other in zip(other, red).allSatisfy { abs($0 - $1) < 1e-9 } }
    }

    /// Whether alpha is left alone (so an opaque pixel stays opaque).
    public var preservesOpacity: Bool { m[12] == 0 && m[13] == 0 && m[14] == 0 && m[15] == 1 && bias[3] == 0 }

    public var matrix: ColorMatrix? { self }

    /// Diagonal: each channel scaled and offset on its own (invert, brightness, exposure gains).
    public var isChannelwise: Bool {
        preservesOpacity && (0..<4).allSatisfy { i in (0..<4).allSatisfy { j in i == j || m[4 * i + j] == 0 } }
    }

    /// out = c0·r + c1·g + c2·b + c3·a + bias, in single precision; alpha clamped to 0…1.
    public func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        func column(_ j: Int) -> Pixel { Pixel(Float(m[j]), Float(m[4 + j]), Float(m[8 + j]), Float(m[12 + j])) }
        let c0 = column(0), c1 = column(1), c2 = column(2), c3 = column(3)
        let b = Pixel(Float(bias[0]), Float(bias[1]), Float(bias[2]), Float(bias[3]))
        for i in 0..<count {
            let p = pixels[i]
            var q = b
            q += c0 * p[0]
            q += c1 * p[1]
            q += c2 * p[2]
            q += c3 * p[3]
            q[3] = min(max(q[3], 0), 1)
            pixels[i] = q
        }
    }
}
