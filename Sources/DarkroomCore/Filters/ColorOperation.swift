/// A colour transform on straight RGBA that the chain compiler knows how to fuse.
public enum ColorOperation: Sendable, Hashable {
    /// An affine map of RGBA; adjacent matrices multiply into one.
    case matrix(ColorMatrix)
    /// `c^p` on R, G and B (negative values are clamped to 0 first).
    case power(Double)
}

/// An affine colour map: `out = M · (r, g, b, a) + bias`, rows for R, G, B, A.
///
/// Kept in Double so that a long chain of fused adjustments does not accumulate error.
public struct ColorMatrix: Sendable, Hashable {
    /// Row-major 4×4.
    public var m: [Double]
    public var bias: [Double]

    public init(_ m: [Double], bias: [Double] = [0, 0, 0, 0]) {
        precondition(m.count == 16 && bias.count == 4)
        self.m = m
        self.bias = bias
    }

    public static let identity = ColorMatrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// A matrix acting on RGB only, alpha untouched.
    public static func rgb(_ m3: [Double], bias: [Double] = [0, 0, 0]) -> ColorMatrix {
        precondition(m3.count == 9 && bias.count == 3)
        return ColorMatrix([m3[0], m3[1], m3[2], 0, m3[3], m3[4], m3[5], 0, m3[6], m3[7], m3[8], 0, 0, 0, 0, 1],
                           bias: bias + [0])
    }

    /// `self` applied first, then `next`.
    public func then(_ next: ColorMatrix) -> ColorMatrix {
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
}
