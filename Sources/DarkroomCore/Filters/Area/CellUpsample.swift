/// A blur computed over cells (``ReducedGaussian``) brought back onto its canvas: each canvas
/// pixel interpolated bilinearly between the four cells around its centre.
struct CellUpsample: PixelKernel {
    /// The cells, their margin included.
    let inputSize: Size
    /// The canvas.
    let outputSize: Size
    /// Canvas pixels per cell each way.
    let scale: Int
    /// Cells before the one that starts at canvas pixel 0.
    let margin: Int

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }
    var preservesOpacity: Bool { false }
    var rendersInColumnPieces: Bool { true }

    /// The cell at or left of canvas pixel `x`'s centre, and how far past it the centre lies
    /// (0 ..< 1): the centre x + ½ lies at cell coordinate (x + ½)/scale + margin − ½,
    /// worked out in whole numbers so every band and piece gets the same weights.
    private func position(_ x: Int) -> (index: Int, fraction: Float) {
        let twice = 2 * scale, u = 2 * x + 1 + (2 * margin - 1) * scale
        return (u / twice, Float(u % twice) / Float(twice))
    }

    func inputRegions(for output: Rect) -> [Rect] {
        let x0 = position(output.x).index, x1 = position(output.maxX - 1).index + 2
        let y0 = position(output.y).index, y1 = position(output.maxY - 1).index + 2
        return [Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, region = inputRegions(for: r)[0]
        let columns = (r.x..<r.maxX).map { position($0) }
        let row = UnsafeMutablePointer<Pixel>.allocate(capacity: region.width)
        defer { row.deallocate() }
        for y in r.y..<r.maxY {
            let (j, fy) = position(y)
            let above = inputs[0].pointer(region.x, j), below = inputs[0].pointer(region.x, j + 1)
            // Down first, over the few cells' columns; then across, per canvas pixel.
            for i in 0..<region.width { row[i] = above[i] + (below[i] - above[i]) * fy }
            let out = target.pointer(r.x, y)
            for (i, c) in columns.enumerated() {
                let a = row[c.index - region.x], b = row[c.index - region.x + 1]
                out[i] = a + (b - a) * c.fraction
            }
        }
    }
}
