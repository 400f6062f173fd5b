import Foundation

/// Fused colour operations, applied in place to the rows a pipeline node has just produced
/// (point filters never make a pass of their own).
///
/// Colour maths runs on straight colour (unpremultiplied), then the result is premultiplied
/// again. Values are not clamped between operations: quantisation happens once, at encode.
public struct ColorProgram: Sendable {
    public let operations: [ColorOperation]
    private let prepared: [PreparedOperation]

    public init(_ operations: [ColorOperation]) {
        self.operations = operations
        prepared = operations.map(PreparedOperation.init)
    }

    public var isEmpty: Bool { operations.isEmpty }

    /// Whether an opaque pixel stays opaque: every matrix leaves alpha alone.
    public var preservesOpacity: Bool {
        operations.allSatisfy { op in
            guard case .matrix(let m) = op else { return true }
            return m.m[12] == 0 && m.m[13] == 0 && m.m[14] == 0 && m.m[15] == 1 && m.bias[3] == 0
        }
    }

    /// Whether a grey pixel (R = G = B) stays grey: every matrix maps equal R, G and B to equal
    /// values (the three colour rows have the same sum over R, G, B, the same alpha weight and
    /// the same bias); a power acts on each channel alike. Sepia and hue turn grey into colour;
    /// brightness, contrast, gamma and invert do not.
    public var preservesGrey: Bool {
        operations.allSatisfy { op in
            guard case .matrix(let m) = op else { return true }
            func row(_ i: Int) -> [Double] {
                let rgb: Double = m.m[4 * i] + m.m[4 * i + 1] + m.m[4 * i + 2]
                return [rgb, m.m[4 * i + 3], m.bias[i]]
            }
            let red = row(0)
            return [row(1), row(2)].allSatisfy { other in zip(other, red).allSatisfy { abs($0 - $1) < 1e-9 } }
        }
    }

    /// Applies the operations to `count` pixels in place.
    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        for i in 0..<count {
            var p = pixels[i].unpremultiplied
            for op in prepared { p = op.apply(p) }
            pixels[i] = p.premultiplied
        }
    }
}

/// A colour operation converted once to the single-precision SIMD form the inner loop wants.
private enum PreparedOperation: Sendable {
    /// Columns of the matrix and the bias: out = c0·r + c1·g + c2·b + c3·a + bias.
    case matrix(Pixel, Pixel, Pixel, Pixel, Pixel)
    case power(Float)

    init(_ op: ColorOperation) {
        switch op {
        case .matrix(let m):
            func column(_ j: Int) -> Pixel { Pixel((0..<4).map { Float(m.m[$0 * 4 + j]) }) }
            self = .matrix(column(0), column(1), column(2), column(3), Pixel(m.bias.map(Float.init)))
        case .power(let p):
            self = .power(Float(p))
        }
    }

    @inline(__always) func apply(_ p: Pixel) -> Pixel {
        switch self {
        case .matrix(let c0, let c1, let c2, let c3, let bias):
            var q: Pixel = bias
            q += c0 * p[0]
            q += c1 * p[1]
            q += c2 * p[2]
            q += c3 * p[3]
            q[3] = min(max(q[3], 0), 1)
            return q
        case .power(let e):
            return Pixel(powf(max(p[0], 0), e), powf(max(p[1], 0), e), powf(max(p[2], 0), e), p[3])
        }
    }
}
