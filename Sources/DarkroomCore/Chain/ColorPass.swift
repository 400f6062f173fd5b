import Foundation

/// One pass applying fused colour operations to every pixel, tile by tile.
///
/// Colour maths runs on straight colour (unpremultiplied), then the result is premultiplied
/// again. Values are not clamped between operations: quantisation happens once, at encode.
struct ColorPass: Sendable {
    let operations: [ColorOperation]

    func apply(to input: Image, executor: TileExecutor) -> Image {
        guard !operations.isEmpty else { return input }
        let ops = operations.map(PreparedOperation.init)
        return input.pixels.withUnsafeBufferPointer { src in
            let source = UncheckedBox(src)
            return executor.render(size: input.size) { tile, out in
                for y in tile.y..<tile.maxY {
                    let row = out.row(y, from: tile.x)
                    let base = y * input.width + tile.x
                    for i in 0..<tile.width {
                        var p = source.value[base + i].unpremultiplied
                        for op in ops { p = op.apply(p) }
                        row[i] = p.premultiplied
                    }
                }
            }
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
