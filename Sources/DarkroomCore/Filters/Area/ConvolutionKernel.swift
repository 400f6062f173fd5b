/// An odd square convolution matrix with libvips' scale and offset:
/// `out = (Σ k·p) / scale + offset`, every channel alike, edges extended (clamp).
public struct ConvolutionKernel: Sendable, Hashable {
    /// Rows and columns (odd).
    public let size: Int
    /// `size × size` coefficients, row-major; row 0 weighs the pixels above.
    public let values: [Double]
    public let scale: Double
    /// Added after scaling, in channel units (0…1 is the full range; vips' 128 on 8-bit ≈ 0.5).
    public let offset: Double

    /// Checks the matrix; `scale` defaults, as in vips, to the sum of the coefficients, or 1
    /// when they sum to 0 (edge detectors).
    public init(values: [Double], scale: Double? = nil, offset: Double = 0) throws(ParameterError) {
        let n = Int(Double(values.count).squareRoot().rounded())
        guard n * n == values.count, n % 2 == 1 else {
            throw ParameterError("the kernel must be a square matrix with an odd number of rows (3×3, 5×5, …), "
                + "got \(values.count) numbers")
        }
        let sum = values.reduce(0, +)
        let s = scale ?? (sum == 0 ? 1 : sum)
        guard s != 0, s.isFinite else { throw ParameterError("scale must not be 0: give the divisor, e.g. scale=1") }
        self.size = n
        self.values = values
        self.scale = s
        self.offset = offset
    }

    /// How far the kernel reaches on each side of its centre.
    public var radius: Int { size / 2 }

    /// True for a lone centre equal to the scale and no offset.
    public var isIdentity: Bool {
        offset == 0 && values.indices.allSatisfy { values[$0] == ($0 == values.count / 2 ? scale : 0) }
    }

    /// The convolved image, the same size as `image`.
    ///
    /// Premultiplied RGB and alpha are treated alike, as vips treats all bands: convolution is
    /// linear, and premultiplied values are the ones that combine linearly (a blurring kernel
    /// then mixes in no colour from transparent pixels). Results are not clamped, so
    /// sharpening overshoot survives until the encoder.
    public func apply(to image: Image, executor: TileExecutor) -> Image {
        guard image.width > 0, image.height > 0 else { return image }
        let weights = values.map { Float($0 / scale) }
        let bias = Pixel(repeating: Float(offset))
        let n = size, r = radius
        return executor.render(size: image.size) { tile, writer in
            image.withClampedWindow(tile.expanded(by: r)) { topLeft, stride in
                weights.withUnsafeBufferPointer { w in
                    for row in 0..<tile.height {
                        let out = writer.row(tile.y + row, from: tile.x)
                        // The pixel under the kernel's top-left tap for the row's first output.
                        let corner = topLeft + row * stride
                        if n == 3 {
                            Self.row3x3(out, corner, stride: stride, count: tile.width, w, bias)
                        } else {
                            Self.row(out, corner, stride: stride, count: tile.width, n: n, w, bias)
                        }
                    }
                }
            }
        }
    }

    /// Any size: the output row accumulates one shifted input row per non-zero coefficient,
    /// which keeps the inner loop a plain streaming multiply-add.
    private static func row(_ out: UnsafeMutablePointer<Pixel>, _ corner: UnsafePointer<Pixel>, stride: Int,
                            count: Int, n: Int, _ w: UnsafeBufferPointer<Float>, _ bias: Pixel) {
        for x in 0..<count { out[x] = bias }
        for ky in 0..<n {
            for kx in 0..<n where w[ky * n + kx] != 0 {
                let k = w[ky * n + kx], p = corner + (ky * stride + kx)
                for x in 0..<count { out[x] += k * p[x] }
            }
        }
    }

    /// 3×3, the sharpening hot path: nine taps unrolled, the sum kept in registers.
    @inline(__always)
    private static func row3x3(_ out: UnsafeMutablePointer<Pixel>, _ corner: UnsafePointer<Pixel>, stride: Int,
                               count: Int, _ w: UnsafeBufferPointer<Float>, _ bias: Pixel) {
        let (w0, w1, w2, w3, w4, w5, w6, w7, w8) = (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8])
        let a = corner, b = corner + stride, c = corner + 2 * stride
        for x in 0..<count {
            let top = w0 * a[x] + w1 * a[x + 1] + w2 * a[x + 2]
            let middle = w3 * b[x] + w4 * b[x + 1] + w5 * b[x + 2]
            let bottom = w6 * c[x] + w7 * c[x + 1] + w8 * c[x + 2]
            out[x] = top + middle + bottom + bias
        }
    }
}
