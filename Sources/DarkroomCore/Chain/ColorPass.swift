import Foundation

/// One pass applying fused colour operations to every pixel, tile by tile.
///
/// Colour maths runs on straight colour (unpremultiplied), then the result is premultiplied
/// again. Values are not clamped between operations: quantisation happens once, at encode.
struct ColorPass: Sendable {
    let operations: [ColorOperation]

    func apply(to input: Image, executor: TileExecutor) -> Image {
        guard !operations.isEmpty else { return input }
        let ops = operations
        return input.pixels.withUnsafeBufferPointer { src in
            let source = UncheckedBox(src)
            return executor.render(size: input.size) { tile, out in
                for y in tile.y..<tile.maxY {
                    let row = out.row(y, from: tile.x)
                    let base = y * input.width + tile.x
                    for i in 0..<tile.width {
                        var p = source.value[base + i].unpremultiplied
                        for op in ops { p = ColorPass.apply(op, p) }
                        row[i] = p.premultiplied
                    }
                }
            }
        }
    }

    @inline(__always)
    static func apply(_ op: ColorOperation, _ p: Pixel) -> Pixel {
        switch op {
        case .matrix(let m):
            var q = m.apply(p)
            q[3] = min(max(q[3], 0), 1)
            return q
        case .power(let e):
            let f = Float(e)
            return Pixel(powf(max(p[0], 0), f), powf(max(p[1], 0), f), powf(max(p[2], 0), f), p[3])
        }
    }
}
