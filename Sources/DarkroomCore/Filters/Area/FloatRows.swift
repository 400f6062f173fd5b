/// The blur and median kernels hand rows of pixels to C as runs of floats (four a pixel).

func floats(_ p: UnsafePointer<Pixel>) -> UnsafePointer<Float> {
    UnsafeRawPointer(p).assumingMemoryBound(to: Float.self)
}

func floats(_ p: UnsafeMutablePointer<Pixel>) -> UnsafeMutablePointer<Float> {
    UnsafeMutableRawPointer(p).assumingMemoryBound(to: Float.self)
}

/// Pixels from one row of the target to the next.
func rowStride(_ target: RegionTarget) -> Int {
    target.rect.height > 1 ? target.pointer(target.rect.x, target.rect.y + 1) - target.pointer(target.rect.x, target.rect.y) : 0
}

/// The rows a kernel reads for `output`: its own and `reach` more above and below, each from
/// column `output.x - left` (a window reads `left = reach` columns to the left; a pass down, 0).
func haloRows(_ view: RegionView, for output: Rect, reach: Int, left: Int) -> [UnsafePointer<Float>?] {
    (0..<(output.height + 2 * reach)).map { k in Optional(floats(view.pointer(output.x - left, output.y - reach + k))) }
}
