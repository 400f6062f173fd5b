/// The mean of each ``scale`` × ``scale`` cell of a canvas on which the input lies at `origin`:
/// output pixel (X, Y) is the mean of canvas pixels [X·scale, (X + 1)·scale) across and down,
/// canvas pixel (x, y) being input pixel (x − origin.x, y − origin.y). Past the input's edges
/// the canvas is transparent (a shadow's layer) or the nearest edge pixel (`clamp`: a blur's
/// extended edges). With `alphaOnly` the output is (0, 0, 0, mean alpha): a shadow's layer, which
/// the blur that follows tints (one channel blurred, not four). At scale 1 it is the canvas itself.
///
/// The layer a ``ReducedGaussian`` blurs; the transparent margins and the extended edges are
/// written here, not read, so the input's bands need no padding or copies however far they reach.
struct CellMean: RGB8InputKernel {
    let inputSize: Size
    let outputSize: Size
    let scale: Int
    let origin: (x: Int, y: Int)
    /// `.clamp` or `.transparent`.
    let edge: EdgeMode
    let alphaOnly: Bool

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: edge)] }
    var preservesOpacity: Bool { !alphaOnly && edge == .clamp }
    var preservesGrey: Bool { true }
    var rendersInColumnPieces: Bool { true }

    /// The input columns (or rows) under output columns (rows) `lo ..< hi`, unclipped.
    private func span(_ lo: Int, _ hi: Int, _ shift: Int) -> Range<Int> { (lo * scale - shift)..<(hi * scale - shift) }

    /// The part of `range` inside `0 ..< extent`; with clamped edges, at least the edge pixel nearest to it.
    private func inside(_ range: Range<Int>, _ extent: Int) -> Range<Int> {
        let lo = max(range.lowerBound, 0), hi = min(range.upperBound, extent)
        guard edge == .clamp, lo >= hi, extent > 0 else { return lo..<max(lo, hi) }
        return range.lowerBound >= extent ? (extent - 1)..<extent : 0..<1
    }

    func inputRegions(for output: Rect) -> [Rect] {
        let xs = inside(span(output.x, output.maxX, origin.x), inputSize.width)
        let ys = inside(span(output.y, output.maxY, origin.y), inputSize.height)
        guard !xs.isEmpty, !ys.isEmpty else { return [Rect(x: 0, y: 0, width: 0, height: 0)] }
        return [Rect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)]
    }

    /// The input rows output row `y`'s cells sum: a row past the top or bottom is the edge row
    /// again (clamp) or nothing (transparent).
    private func rows(_ y: Int) -> [Int] { span(y, y + 1, origin.y).compactMap { edge.index($0, extent: inputSize.height) } }

    /// Output column `x`'s cell: its input columns inside the image, and how many more repeat the
    /// left and the right edge pixel (none when the edges are transparent).
    private func columns(_ x: Int) -> (inside: Range<Int>, left: Int, right: Int) {
        let cell = span(x, x + 1, origin.x), w = inputSize.width
        let lo = max(cell.lowerBound, 0), hi = max(min(cell.upperBound, w), lo)
        guard edge == .clamp else { return (lo..<hi, 0, 0) }
        return (lo..<hi, max(min(cell.upperBound, 0) - cell.lowerBound, 0), max(cell.upperBound - max(cell.lowerBound, w), 0))
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, region = inputRegions(for: r)[0], w = inputSize.width
        let sums = UnsafeMutablePointer<Pixel>.allocate(capacity: r.width)
        defer { sums.deallocate() }
        let cells = (r.x..<r.maxX).map(columns), cellArea = Float(scale * scale)
        for y in r.y..<r.maxY {
            sums.update(repeating: .zero, count: r.width)
            for row in rows(y) where !region.isEmpty {
                let src = inputs[0].pointer(region.x, row) - region.x
                for (c, cell) in cells.enumerated() {
                    var s = Pixel.zero
                    for x in cell.inside { s += src[x] }
                    if cell.left > 0 { s += src[0] * Float(cell.left) }
                    if cell.right > 0 { s += src[w - 1] * Float(cell.right) }
                    sums[c] += s
                }
            }
            let out = target.pointer(r.x, y)
            for c in 0..<r.width {
                let mean = sums[c] / cellArea
                out[c] = alphaOnly ? Pixel(0, 0, 0, mean[3]) : mean
            }
        }
    }

    /// An opaque 8-bit source's colour cells from its decoded rows: whole-number sums, so any band
    /// or piece gives the same pixels.
    var acceptsRGB8Input: Bool { edge == .clamp && !alphaOnly }

    func render(rgb8 view: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect, w = inputSize.width
        let sums = UnsafeMutablePointer<SIMD4<Int32>>.allocate(capacity: r.width)
        defer { sums.deallocate() }
        let cells = (r.x..<r.maxX).map(columns), scaleDown = 1 / Float(255 * scale * scale)
        for y in r.y..<r.maxY {
            sums.update(repeating: .zero, count: r.width)
            for row in rows(y) {
                let src = view.pointer(view.rect.x, row) - 3 * view.rect.x
                func pixel(_ x: Int) -> SIMD4<Int32> { SIMD4(Int32(src[3 * x]), Int32(src[3 * x + 1]), Int32(src[3 * x + 2]), 0) }
                for (c, cell) in cells.enumerated() {
                    var s = SIMD4<Int32>.zero
                    for x in cell.inside { s &+= pixel(x) }
                    if cell.left > 0 { s &+= pixel(0) &* Int32(cell.left) }
                    if cell.right > 0 { s &+= pixel(w - 1) &* Int32(cell.right) }
                    sums[c] &+= s
                }
            }
            let out = target.pointer(r.x, y)
            for c in 0..<r.width {
                var p = Pixel(Float(sums[c][0]), Float(sums[c][1]), Float(sums[c][2]), 0) * scaleDown
                p[3] = 1
                out[c] = p
            }
        }
    }
}
