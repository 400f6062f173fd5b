/// Bilinear reads of a premultiplied image at fractional positions; outside the image is
/// transparent (premultiplied zero), so edges fade out instead of smearing the border.
struct BilinearSampler {
    let source: UnsafeBufferPointer<Pixel>
    let width: Int
    let height: Int

    /// The value at index-space position (`x`, `y`): pixel (i, j) has its centre at (i, j).
    @inline(__always) func sample(_ x: Double, _ y: Double) -> Pixel {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        guard fx >= -1, fy >= -1, fx < Double(width), fy < Double(height) else { return .zero }
        let x0 = Int(fx), y0 = Int(fy)
        let tx = Float(x - fx), ty = Float(y - fy)
        let base = source.baseAddress!
        if x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height {
            let p = base + y0 * width + x0
            let top = p[0] + (p[1] - p[0]) * tx
            let bottom = p[width] + (p[width + 1] - p[width]) * tx
            return top + (bottom - top) * ty
        }
        @inline(__always) func at(_ i: Int, _ j: Int) -> Pixel {
            i >= 0 && j >= 0 && i < width && j < height ? base[j * width + i] : .zero
        }
        let top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx
        let bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }
}
