/// Read access to a rectangle of pixels the pipeline holds for one kernel call: one pointer per
/// row, so neighbouring rows may live in different bands and rows past an edge may repeat.
///
/// Valid only inside the call that received it, on that call's thread. Pixels are premultiplied
/// float RGBA. Every pixel of `rect` may be read, including those outside the producing image:
/// the pipeline answers those according to the consumer's ``EdgeMode``.
public struct RegionView {
    /// The rectangle readable through this view, in the producer's coordinates.
    public let rect: Rect
    @usableFromInline let rows: UnsafePointer<UnsafePointer<Pixel>>
    /// Set when a read fell outside `rect`; the pipeline then fails the render (``PipelineError``).
    @usableFromInline let overreach: UnsafeMutablePointer<Bool>?

    init(rect: Rect, rows: UnsafePointer<UnsafePointer<Pixel>>, overreach: UnsafeMutablePointer<Bool>? = nil) {
        self.rect = rect
        self.rows = rows
        self.overreach = overreach
    }

    /// Pixel (`x`, `y`) of the producer's image, for `x` in `rect.x ..< rect.maxX`, and the
    /// pixels after it along the row up to `rect.maxX`.
    ///
    /// Checked in every build: a kernel that reads past what its `inputRegions(for:)` declared
    /// gets the nearest pixel of the view instead of memory it does not own, and the render fails
    /// with ``PipelineError/kernelReadOutsideItsRegion(_:)``: one failed file (or test), never
    /// a crash or a read out of bounds. One comparison per row pointer, where kernels take them.
    @inlinable public func pointer(_ x: Int, _ y: Int) -> UnsafePointer<Pixel> {
        if _slowPath(y < rect.y || y >= rect.maxY || x < rect.x || x > rect.maxX) {
            overreach?.pointee = true
            let cy = Swift.min(Swift.max(y, rect.y), rect.maxY - 1), cx = Swift.min(Swift.max(x, rect.x), rect.maxX)
            return rows[Swift.max(cy - rect.y, 0)] + (cx - rect.x)
        }
        return rows[y - rect.y] + (x - rect.x)
    }

    @inlinable subscript(x: Int, y: Int) -> Pixel { pointer(x, y).pointee }
}

/// Write access to the rectangle a kernel call must fill, and nothing else: rows are `stride`
/// pixels apart and belong to this call alone, so no other thread writes them meanwhile.
public struct RegionTarget {
    /// The rectangle to fill, in the kernel's output coordinates.
    public let rect: Rect
    @usableFromInline let origin: UnsafeMutablePointer<Pixel>
    @usableFromInline let stride: Int

    /// - Parameter origin: where pixel (`rect.x`, `rect.y`) goes.
    init(rect: Rect, origin: UnsafeMutablePointer<Pixel>, stride: Int) {
        self.rect = rect
        self.origin = origin
        self.stride = stride
    }

    /// Pixel (`x`, `y`) of the output, and the pixels after it up to `rect.maxX`.
    @inlinable public func pointer(_ x: Int, _ y: Int) -> UnsafeMutablePointer<Pixel> {
        origin + ((y - rect.y) * stride + (x - rect.x))
    }
}
