/// Multiplies each pixel (premultiplied RGB; alpha kept) by a factor that depends on its
/// position alone: the shared kernel of `vignette` and `vignette_effect`. The factor is taken
/// at the pixel's centre (x + 0.5, y + 0.5).
struct PositionShadeKernel: PixelKernel {
    let size: Size
    let factor: @Sendable (_ x: Double, _ y: Double) -> Float

    var outputSize: Size { size }
    var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] { [output] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY {
            let row = inputs[0].pointer(r.x, y), out = target.pointer(r.x, y)
            for x in 0..<r.width {
                let f = factor(Double(r.x + x) + 0.5, Double(y) + 0.5)
                var p = row[x] * f
                p[3] = row[x][3]
                out[x] = p
            }
        }
    }
}

/// `smoothstep(e0, e1, x)`: 0 below e0, 1 above e1, 3t² − 2t³ between (as in GLSL and Core Image kernels).
func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    guard e1 > e0 else { return x < e0 ? 0 : 1 }
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}
