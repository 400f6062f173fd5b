/// A Gaussian blur as two 1-D passes (across, then down), each rendered tile by tile.
///
/// One piece of code serves `gaussian_blur` and `drop_shadow`. Edges are extended (clamp), so
/// a flat image stays flat up to its border. It works on whatever the pixels hold; on
/// premultiplied pixels colour and alpha blur alike, which is why transparent regions do not
/// bleed black into their neighbours.
public struct GaussianBlur: Sendable, Hashable {
    public let kernel: GaussianKernel

    public init(sigma: Double) {
        kernel = GaussianKernel(sigma: sigma)
    }

    /// How far the blur reads past each output pixel.
    public var halo: Int { kernel.halfWidth }

    /// The blurred image, the same size as `image`.
    public func apply(to image: Image, executor: TileExecutor) -> Image {
        guard halo > 0, image.width > 0, image.height > 0 else { return image }
        return pass(pass(image, across: true, executor: executor), across: false, executor: executor)
    }

    /// One 1-D pass. The kernel is symmetric, so mirrored taps share one multiply.
    private func pass(_ image: Image, across: Bool, executor: TileExecutor) -> Image {
        let h = halo
        return executor.render(size: image.size) { tile, writer in
            let rect = across
                ? Rect(x: tile.x - h, y: tile.y, width: tile.width + 2 * h, height: tile.height)
                : Rect(x: tile.x, y: tile.y - h, width: tile.width, height: tile.height + 2 * h)
            image.withClampedWindow(rect, compact: !across) { topLeft, stride in
                kernel.weights.withUnsafeBufferPointer { w in
                    // Distance between neighbouring taps: one pixel across, one row down.
                    let step = across ? 1 : stride
                    for row in 0..<tile.height {
                        let out = writer.row(tile.y + row, from: tile.x)
                        let centre = topLeft + (across ? row * stride + h : (row + h) * stride)
                        let c = w[h]
                        for x in 0..<tile.width { out[x] = c * centre[x] }
                        for k in 1...h {
                            let wk = w[h + k], before = centre - k * step, after = centre + k * step
                            for x in 0..<tile.width { out[x] += wk * (before[x] + after[x]) }
                        }
                    }
                }
            }
        }
    }
}
