/// A whole image kept in a compact integer form, for kernels that read their input at random
/// (``RandomAccessKernel``): 3 bytes a pixel for an opaque 8-bit source, 8 for anything else,
/// instead of the 16 of float RGBA. Rows are filled in order while readers use the rows above.
final class CompactImage: @unchecked Sendable {
    /// How samples are stored.
    enum Layout: Sendable {
        /// Opaque 8-bit RGB, exactly the source's samples.
        case rgb8
        /// Premultiplied RGBA, 16 bits a sample: holds 16-bit sources and float results to 1/65535.
        case rgba16
    }

    let size: Size
    let layout: Layout
    /// Bytes per pixel.
    let pixelBytes: Int
    let storage: UnsafeMutableRawPointer

    /// The pipeline counts its bytes in the render's ``PixelMemory``; an asset store, in its own.
    init(size: Size, layout: Layout) {
        self.size = size
        self.layout = layout
        pixelBytes = layout == .rgb8 ? 3 : 8
        storage = UnsafeMutableRawPointer.allocate(byteCount: max(1, size.area * pixelBytes), alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Stores `count` float pixels as row `y`, columns from 0. Values are clamped to 0…1.
    func store(row y: Int, from pixels: UnsafePointer<Pixel>, count: Int) {
        let base = storage + y * size.width * pixelBytes
        switch layout {
        case .rgb8:
            let out = base.assumingMemoryBound(to: UInt8.self)
            for x in 0..<count {
                let p = pixels[x]
                out[3 * x] = Self.byte(p[0]); out[3 * x + 1] = Self.byte(p[1]); out[3 * x + 2] = Self.byte(p[2])
            }
        case .rgba16:
            let out = base.assumingMemoryBound(to: UInt16.self)
            for x in 0..<count {
                let p = pixels[x]
                out[4 * x] = Self.half(p[0]); out[4 * x + 1] = Self.half(p[1])
                out[4 * x + 2] = Self.half(p[2]); out[4 * x + 3] = Self.half(p[3])
            }
        }
    }

    /// Pixel (`x`, `y`) as premultiplied float; the caller keeps inside the image.
    @inline(__always) func pixel(_ x: Int, _ y: Int) -> Pixel {
        let offset = (y * size.width + x) * pixelBytes
        switch layout {
        case .rgb8:
            let p = (storage + offset).assumingMemoryBound(to: UInt8.self)
            return Pixel(Float(p[0]), Float(p[1]), Float(p[2]), 255) * (1 / 255)
        case .rgba16:
            let p = (storage + offset).assumingMemoryBound(to: UInt16.self)
            return Pixel(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) * (1 / 65535)
        }
    }

    @inline(__always) private static func byte(_ v: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int32((v > 0 ? (v < 1 ? v : 1) : 0) * 255 + 0.5))
    }

    @inline(__always) private static func half(_ v: Float) -> UInt16 {
        UInt16(truncatingIfNeeded: Int32((v > 0 ? (v < 1 ? v : 1) : 0) * 65535 + 0.5))
    }
}
