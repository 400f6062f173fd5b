/// A kernel that can read its one input as the 8-bit RGB samples an opaque 8-bit source
/// decodes, when that source feeds it alone: the decoded rows then never become float (3 bytes
/// a pixel where float RGBA takes 16, and no conversion pass). The resize's horizontal half is
/// one: it reads every decoded pixel, and libvips' `reduceh` works on uchar samples the same way.
package protocol RGB8InputKernel: PixelKernel {
    /// Whether ``render(rgb8:into:)`` can compute this instance (its weights fit fixed point).
    var acceptsRGB8Input: Bool { get }

    /// The same pixels as `render(_:into:)` would give (to within 8-bit rounding of its
    /// arithmetic), from the input's samples over `inputRegions(for: target.rect)[0]` clipped to
    /// the input's bounds: reads past the edges are answered by the kernel itself, as its
    /// input's ``EdgeMode`` says (a blur extends the edge pixels).
    func render(rgb8 input: RGB8RegionView, into target: RegionTarget)
}

/// Read access to 8-bit RGB rows for one call (a kernel's input, or an 8-bit output band handed
/// to the sink): one pointer per row, at column `rect.x`. Valid only inside the call; the rows
/// lie inside the image (no edge reads), and 2 bytes past each row's last pixel may be read
/// (see `dr_resample_rgb8_across`).
public struct RGB8RegionView {
    public let rect: Rect
    @usableFromInline let rows: UnsafePointer<UnsafePointer<UInt8>>
    /// Set when a read fell outside `rect` (checked as ``RegionView`` does; the render then fails).
    @usableFromInline var overreach: UnsafeMutablePointer<Bool>? = nil

    init(rect: Rect, rows: UnsafePointer<UnsafePointer<UInt8>>, overreach: UnsafeMutablePointer<Bool>? = nil) {
        self.rect = rect
        self.rows = rows
        self.overreach = overreach
    }

    /// The samples of pixel (`x`, `y`) and the pixels after it along the row.
    @inlinable public func pointer(_ x: Int, _ y: Int) -> UnsafePointer<UInt8> {
        if _slowPath(y < rect.y || y >= rect.maxY || x < rect.x || x > rect.maxX) {
            overreach?.pointee = true
            let cy = Swift.min(Swift.max(y, rect.y), rect.maxY - 1), cx = Swift.min(Swift.max(x, rect.x), rect.maxX)
            return rows[Swift.max(cy - rect.y, 0)] + 3 * (cx - rect.x)
        }
        return rows[y - rect.y] + 3 * (x - rect.x)
    }
}
