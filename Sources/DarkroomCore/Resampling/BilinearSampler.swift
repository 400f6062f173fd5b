/// Pixels addressable by integer position: a pipeline view or a compact whole image.
protocol PixelGrid {
    var width: Int { get }
    var height: Int { get }
    /// Pixel (`x`, `y`); the caller keeps inside the grid.
    func at(_ x: Int, _ y: Int) -> Pixel
}

extension PixelGrid {
    /// The bilinear value at index-space position (`x`, `y`) (pixel (i, j) has its centre at
    /// (i, j)); outside the grid is transparent (premultiplied zero), so edges fade out instead
    /// of smearing the border.
    @inline(__always) func bilinear(_ x: Double, _ y: Double) -> Pixel {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        guard fx >= -1, fy >= -1, fx < Double(width), fy < Double(height) else { return .zero }
        let x0 = Int(fx), y0 = Int(fy)
        let tx = Float(x - fx), ty = Float(y - fy)
        if x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height {
            let p00 = at(x0, y0), p10 = at(x0 + 1, y0), p01 = at(x0, y0 + 1), p11 = at(x0 + 1, y0 + 1)
            let top = p00 + (p10 - p00) * tx
            let bottom = p01 + (p11 - p01) * tx
            return top + (bottom - top) * ty
        }
        @inline(__always) func edge(_ i: Int, _ j: Int) -> Pixel {
            i >= 0 && j >= 0 && i < width && j < height ? at(i, j) : .zero
        }
        let top = edge(x0, y0) * (1 - tx) + edge(x0 + 1, y0) * tx
        let bottom = edge(x0, y0 + 1) * (1 - tx) + edge(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }
}

/// A pipeline view of an input of `width` × `height` as a grid.
struct ViewGrid: PixelGrid {
    let view: RegionView
    let width: Int
    let height: Int
    @inline(__always) func at(_ x: Int, _ y: Int) -> Pixel { view.pointer(x, y).pointee }
}

extension CompactImage: PixelGrid {
    var width: Int { size.width }
    var height: Int { size.height }
    @inline(__always) func at(_ x: Int, _ y: Int) -> Pixel { pixel(x, y) }
}
