extension Image {
    /// Reads a rectangle of the image with pixels outside it taken from the nearest edge pixel
    /// (edge extension, libvips' `VIPS_EXTEND_COPY`).
    ///
    /// `body` gets a pointer to the window's top-left pixel and the distance between its rows,
    /// so kernels read neighbourhoods without bounds checks. A window inside the image is read
    /// in place; one reaching past an edge is first copied with its edges extended (a tile plus
    /// its halo, small enough to stay in cache). `compact` forces the copy even inside the image:
    /// a vertical pass reads many rows per output row, and rows a whole image width apart thrash
    /// the cache (measured: the radius-10 blur's vertical pass runs ~30 % slower in place).
    func withClampedWindow<R>(_ rect: Rect, compact: Bool = false,
                              _ body: (_ topLeft: UnsafePointer<Pixel>, _ stride: Int) -> R) -> R {
        precondition(width > 0 && height > 0, "cannot extend the edges of an empty image")
        if !compact, rect.x >= 0, rect.y >= 0, rect.maxX <= width, rect.maxY <= height {
            return pixels.withUnsafeBufferPointer { body($0.baseAddress! + (rect.y * width + rect.x), width) }
        }
        let copy = clampedCopy(of: rect)
        return copy.withUnsafeBufferPointer { body($0.baseAddress!, rect.width) }
    }

    /// `rect`'s pixels, row-major, with edges extended.
    private func clampedCopy(of rect: Rect) -> [Pixel] {
        let w = rect.width, lastX = width - 1, lastY = height - 1
        // Columns [0, left) lie left of the image, [right, w) right of it; between, a plain copy.
        let left = min(max(-rect.x, 0), w)
        let right = max(min(width - rect.x, w), left)
        return pixels.withUnsafeBufferPointer { src in
            [Pixel](unsafeUninitializedCapacity: max(1, w * rect.height)) { dst, initialized in
                for row in 0..<rect.height {
                    let srcRow = src.baseAddress! + min(max(rect.y + row, 0), lastY) * width
                    let dstRow = dst.baseAddress! + row * w
                    dstRow.initialize(repeating: srcRow[0], count: left)
                    (dstRow + left).initialize(from: srcRow + (rect.x + left), count: right - left)
                    (dstRow + right).initialize(repeating: srcRow[lastX], count: w - right)
                }
                // One spare pixel keeps the base address valid for an empty window.
                if w * rect.height == 0 { dst.initializeElement(at: 0, to: .zero) }
                initialized = max(1, w * rect.height)
            }
        }
    }
}
