/// An odd square convolution matrix with libvips' scale and offset:
/// `out = (Σ k·p) / scale + offset`, every channel alike, edges extended (clamp).
struct ConvolutionKernel: Sendable, Hashable {
    /// The largest kernel accepted: 31×31 is already 961 multiply-adds a pixel; a larger one is almost always a mistake, and a blur has its own filter.
    static let maximumSize = 31

    /// Rows and columns (odd).
    let size: Int
    /// `size × size` coefficients, row-major; row 0 weighs the pixels above.
    let values: [Double]
    let scale: Double
    /// Added after scaling, in channel units (0…1 is the full range; vips' 128 on 8-bit ≈ 0.5).
    let offset: Double

    /// Checks the matrix; `scale` defaults, as in vips, to the sum of the coefficients, or 1
    /// when they sum to 0 (edge detectors).
    init(values: [Double], scale: Double? = nil, offset: Double = 0) throws(ParameterError) {
        let n = Int(Double(values.count).squareRoot().rounded())
        guard n * n == values.count, n % 2 == 1 else {
            throw ParameterError("the kernel must be a square matrix with an odd number of rows (3×3, 5×5, …), "
                + "got \(values.count) numbers")
        }
        guard n <= Self.maximumSize else {
            throw ParameterError("the kernel is \(n)×\(n); at most \(Self.maximumSize)×\(Self.maximumSize) is allowed "
                + "(each output pixel costs n² multiplications: use gaussian_blur for wide blurs)")
        }
        let sum = values.reduce(0, +)
        guard scale != nil || sum.isFinite else {
            throw ParameterError("the kernel's coefficients add up to more than a number can hold: give scale explicitly")
        }
        let s = scale ?? (sum == 0 ? 1 : sum)
        guard s != 0, s.isFinite else { throw ParameterError("scale must not be 0: give the divisor, e.g. scale=1") }
        // A tiny scale makes the weights overflow Float; every pixel would come out infinite or NaN.
        guard values.allSatisfy({ Float($0 / s).isFinite }) else {
            throw ParameterError("scale \(s) is too small for this kernel: the weights k/scale overflow")
        }
        self.size = n
        self.values = values
        self.scale = s
        self.offset = offset
    }

    /// How far the kernel reaches on each side of its centre.
    var radius: Int { size / 2 }

    /// True for a lone centre equal to the scale and no offset.
    var isIdentity: Bool {
        offset == 0 && values.indices.allSatisfy { values[$0] == ($0 == values.count / 2 ? scale : 0) }
    }

    /// The kernel as a pipeline step over an image of `size`.
    func pixelKernel(for size: Size) -> ConvolveKernel { ConvolveKernel(kernel: self, size: size) }
}

/// `convolve` as a pipeline kernel: each output row sums `size` input rows, edges extended.
///
/// Premultiplied RGB and alpha are treated alike, as vips treats all bands: convolution is
/// linear, and premultiplied values are the ones that combine linearly (a blurring kernel then
/// mixes in no colour from transparent pixels). Results are not clamped, so sharpening
/// overshoot survives until the encoder.
struct ConvolveKernel: PixelKernel {
    var rendersInColumnPieces: Bool { true }
    let kernel: ConvolutionKernel
    let size: Size

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    /// Opaque stays opaque when the weights sum, after scale and offset, to exactly 1.
    var preservesOpacity: Bool { kernel.values.reduce(0, +) / kernel.scale + kernel.offset == 1 }

    func inputRegions(for output: Rect) -> [Rect] { [output.expanded(by: kernel.radius)] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let view = inputs[0], r = target.rect, n = kernel.size, radius = kernel.radius
        let weights = kernel.values.map { Float($0 / kernel.scale) }
        let bias = Pixel(repeating: Float(kernel.offset))
        let rows = UnsafeMutablePointer<UnsafePointer<Pixel>>.allocate(capacity: n)
        defer { rows.deallocate() }
        weights.withUnsafeBufferPointer { w in
            for y in r.y..<r.maxY {
                // The pixel under each kernel row's leftmost tap, for the row's first output.
                for ky in 0..<n { rows[ky] = view.pointer(r.x - radius, y - radius + ky) }
                let out = target.pointer(r.x, y)
                if n == 3 {
                    Self.row3x3(out, rows[0], rows[1], rows[2], count: r.width, w, bias)
                } else {
                    Self.row(out, rows, count: r.width, n: n, w, bias)
                }
            }
        }
    }

    /// Any size: the output row accumulates one shifted input row per non-zero coefficient,
    /// which keeps the inner loop a plain streaming multiply-add.
    private static func row(_ out: UnsafeMutablePointer<Pixel>, _ rows: UnsafePointer<UnsafePointer<Pixel>>,
                            count: Int, n: Int, _ w: UnsafeBufferPointer<Float>, _ bias: Pixel) {
        for x in 0..<count { out[x] = bias }
        for ky in 0..<n {
            for kx in 0..<n where w[ky * n + kx] != 0 {
                let k = w[ky * n + kx], p = rows[ky] + kx
                for x in 0..<count { out[x] += k * p[x] }
            }
        }
    }

    /// 3×3, the sharpening hot path: nine taps unrolled, the sum kept in registers.
    @inline(__always)
    private static func row3x3(_ out: UnsafeMutablePointer<Pixel>, _ a: UnsafePointer<Pixel>, _ b: UnsafePointer<Pixel>,
                               _ c: UnsafePointer<Pixel>, count: Int, _ w: UnsafeBufferPointer<Float>, _ bias: Pixel) {
        let (w0, w1, w2, w3, w4, w5, w6, w7, w8) = (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8])
        for x in 0..<count {
            let top = w0 * a[x] + w1 * a[x + 1] + w2 * a[x + 2]
            let middle = w3 * b[x] + w4 * b[x + 1] + w5 * b[x + 2]
            let bottom = w6 * c[x] + w7 * c[x + 1] + w8 * c[x + 2]
            out[x] = top + middle + bottom + bias
        }
    }
}
