/// The image's alpha as (0, 0, 0, alpha), placed at `origin`, transparent elsewhere; at a
/// ``scale`` above 1, each output pixel is the mean alpha of a scale × scale cell of that layer
/// (the cells of a ``ReducedGaussian``). The blur that follows tints it (one
/// channel blurred, not four).
struct ShadowLayer: PixelKernel {
    let inputSize: Size
    let outputSize: Size
    /// Where the input's top-left pixel lands, in full-resolution layer pixels.
    let origin: (x: Int, y: Int)
    /// Layer pixels per output pixel each way.
    let scale: Int

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .transparent)] }
    var preservesOpacity: Bool { false }
    var rendersInColumnPieces: Bool { true }

    /// The part of the input under `output`'s cells: the layer's margins (a large blur's reach)
    /// are transparent and written here, not read, so the input's bands need no padding or copies.
    func inputRegions(for output: Rect) -> [Rect] {
        let k = scale
        let region = Rect(x: output.x * k - origin.x, y: output.y * k - origin.y, width: output.width * k, height: output.height * k)
            .intersection(Rect(size: inputSize))
        return [region.isEmpty ? Rect(x: 0, y: 0, width: 0, height: 0) : region]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, region = inputRegions(for: r)[0], k = scale
        let sums = UnsafeMutablePointer<Float>.allocate(capacity: r.width)
        defer { sums.deallocate() }
        let cellArea = Float(k * k)
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            let top = max(y * k - origin.y, region.y), bottom = min(y * k + k - origin.y, region.maxY)
            guard !region.isEmpty, top < bottom else {
                out.update(repeating: .zero, count: r.width)
                continue
            }
            // Output columns c0 ..< c1 have cells over the input.
            let c0 = (region.x + origin.x) / k - r.x, c1 = (region.maxX - 1 + origin.x) / k + 1 - r.x
            sums.update(repeating: 0, count: r.width)
            for sy in top..<bottom {
                let src = inputs[0].pointer(region.x, sy)
                for c in c0..<c1 {
                    let x0 = max((r.x + c) * k - origin.x, region.x), x1 = min((r.x + c) * k + k - origin.x, region.maxX)
                    var s: Float = 0
                    for x in x0..<x1 { s += src[x - region.x][3] }
                    sums[c] += s
                }
            }
            out.update(repeating: .zero, count: c0)
            for c in c0..<c1 { out[c] = Pixel(0, 0, 0, sums[c] / cellArea) }
            (out + c1).update(repeating: .zero, count: r.width - c1)
        }
    }
}
