/// A rectangle of an image copied into its own buffer, with pixels outside the image taken
/// from the nearest edge pixel (edge extension, libvips' `VIPS_EXTEND_COPY`).
///
/// Kernels read neighbourhoods from the window without any bounds checks, and the window is
/// small enough (a tile plus its halo) to stay in cache while a kernel passes over it many times.
struct ClampedWindow {
    /// The window's place in image coordinates; it may reach past the image.
    let rect: Rect
    /// `rect.width × rect.height` pixels, row-major.
    let pixels: [Pixel]

    init(_ image: Image, rect: Rect) {
        precondition(image.width > 0 && image.height > 0, "cannot extend the edges of an empty image")
        self.rect = rect
        let w = rect.width, lastX = image.width - 1, lastY = image.height - 1
        // Columns [0, left) lie left of the image, [right, w) right of it; between, a plain copy.
        let left = min(max(-rect.x, 0), w)
        let right = max(min(image.width - rect.x, w), left)
        pixels = image.pixels.withUnsafeBufferPointer { src in
            [Pixel](unsafeUninitializedCapacity: rect.width * rect.height) { dst, initialized in
                for row in 0..<rect.height {
                    let srcRow = src.baseAddress! + min(max(rect.y + row, 0), lastY) * image.width
                    let dstRow = dst.baseAddress! + row * w
                    dstRow.initialize(repeating: srcRow[0], count: left)
                    (dstRow + left).initialize(from: srcRow + (rect.x + left), count: right - left)
                    (dstRow + right).initialize(repeating: srcRow[lastX], count: w - right)
                }
                initialized = rect.width * rect.height
            }
        }
    }
}
