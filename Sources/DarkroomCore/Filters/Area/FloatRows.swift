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
