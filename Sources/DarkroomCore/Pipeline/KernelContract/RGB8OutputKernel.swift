/// An ``RGB8InputKernel`` that can also write its output as 8-bit RGB: when it reads the
/// decoder's 8-bit rows, is the chain's last node and the sink takes 8-bit RGB rows (an opaque
/// JPEG, PNG, WebP, AVIF or TIFF output; ``StripQuantiser/takesRGB8Rows``), the image goes from
/// decoder to encoder in 8 bits: no float bands, no conversion to float and back. `draw` is
/// one: it paints its shapes straight onto the decoded samples, as cairo paints onto an RGB24
/// surface.
package protocol RGB8OutputKernel: RGB8InputKernel {
    /// Whether this instance can write 8-bit output (it must keep an opaque image opaque).
    var writesRGB8Output: Bool { get }

    /// The pixels `render(rgb8:into:)` gives, as the sink would quantise them (clamped,
    /// rounded to nearest), to within the 8-bit rounding of its own steps: at most 1/255 apart.
    func render(rgb8 input: RGB8RegionView, into target: RGB8RegionTarget)
}

/// Write access to the 8-bit RGB rows a kernel call must fill (3 bytes a pixel, `rowBytes`
/// apart), and nothing else: they belong to this call alone.
package struct RGB8RegionTarget {
    /// The rectangle to fill, in the kernel's output coordinates.
    package let rect: Rect
    @usableFromInline let origin: UnsafeMutablePointer<UInt8>
    @usableFromInline let rowBytes: Int

    /// - Parameter origin: where pixel (`rect.x`, `rect.y`) goes.
    init(rect: Rect, origin: UnsafeMutablePointer<UInt8>, rowBytes: Int) {
        self.rect = rect
        self.origin = origin
        self.rowBytes = rowBytes
    }

    /// The samples of pixel (`x`, `y`), and the pixels after it up to `rect.maxX`.
    @inlinable package func pointer(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
        origin + ((y - rect.y) * rowBytes + 3 * (x - rect.x))
    }
}
