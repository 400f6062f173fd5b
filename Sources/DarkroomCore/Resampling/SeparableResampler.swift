/// Resamples an image with one set of weights per axis: a horizontal pass then a vertical pass.
///
/// Both passes run inside each output tile: the tile's source rows are first reduced
/// horizontally into a tile-sized scratch buffer, which the vertical pass then reduces into the
/// output. No full-size intermediate image is allocated (at 4800×4800 that would be 350 MB),
/// and the few source rows shared by vertically adjacent tiles are reduced twice, which costs
/// a few percent.
public struct SeparableResampler: Sendable {
    public let horizontal: AxisWeights
    public let vertical: AxisWeights
    public let outputSize: Size
    /// Kernels with negative lobes (bicubic, lanczos3) overshoot at hard edges; their results
    /// are clamped so that alpha stays in 0…1 and colour never exceeds alpha (valid premultiplied).
    let clampsOvershoot: Bool

    public init(horizontal: AxisWeights, vertical: AxisWeights) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.outputSize = Size(width: horizontal.start.count, height: vertical.start.count)
        self.clampsOvershoot = horizontal.weights.contains { $0 < 0 } || vertical.weights.contains { $0 < 0 }
    }

    /// The source rectangle that the output rectangle `output` reads.
    public func inputRegion(for output: Rect) -> Rect {
        let xs = horizontal.sourceRange(of: output.x..<output.maxX)
        let ys = vertical.sourceRange(of: output.y..<output.maxY)
        return Rect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
    }

    /// The resampled image. `input` must have the source lengths the weights were made for.
    public func apply(to input: Image, executor: TileExecutor) -> Image {
        let h = horizontal, v = vertical
        let sourceWidth = input.width
        let clamps = clampsOvershoot
        return input.pixels.withUnsafeBufferPointer { source in
            executor.render(size: outputSize) { tile, writer in
                let rows = v.sourceRange(of: tile.y..<tile.maxY)
                let tw = tile.width
                let scratch = UnsafeMutableBufferPointer<Pixel>.allocate(capacity: rows.count * tw)
                defer { scratch.deallocate() }
                h.weights.withUnsafeBufferPointer { hw in
                    h.start.withUnsafeBufferPointer { hs in
                        let taps = h.taps
                        for r in rows {
                            let src = source.baseAddress! + r * sourceWidth
                            let dst = scratch.baseAddress! + (r - rows.lowerBound) * tw
                            for i in 0..<tw {
                                let o = tile.x + i
                                let s = src + hs[o]
                                let w = hw.baseAddress! + o * taps
                                // Four independent sums let the loads and multiplies overlap.
                                var a0 = Pixel.zero, a1 = Pixel.zero, a2 = Pixel.zero, a3 = Pixel.zero
                                var k = 0
                                while k + 4 <= taps {
                                    a0 += s[k] * w[k]
                                    a1 += s[k + 1] * w[k + 1]
                                    a2 += s[k + 2] * w[k + 2]
                                    a3 += s[k + 3] * w[k + 3]
                                    k += 4
                                }
                                while k < taps { a0 += s[k] * w[k]; k += 1 }
                                dst[i] = (a0 + a1) + (a2 + a3)
                            }
                        }
                    }
                }
                v.weights.withUnsafeBufferPointer { vw in
                    let taps = v.taps
                    for y in tile.y..<tile.maxY {
                        let out = writer.row(y, from: tile.x)
                        let first = scratch.baseAddress! + (v.start[y] - rows.lowerBound) * tw
                        let w = vw.baseAddress! + y * taps
                        let w0 = w[0]
                        for i in 0..<tw { out[i] = first[i] * w0 }
                        for k in 1..<max(taps, 1) where w[k] != 0 {
                            let line = first + k * tw, wk = w[k]
                            for i in 0..<tw { out[i] += line[i] * wk }
                        }
                        if clamps {
                            for i in 0..<tw {
                                let a = min(max(out[i][3], 0), 1)
                                out[i] = out[i].clamped(lowerBound: .zero, upperBound: Pixel(a, a, a, a))
                            }
                        }
                    }
                }
            }
        }
    }
}
