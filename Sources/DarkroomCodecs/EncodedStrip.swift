import CDarkroomCodecs

/// What an ``ImageEncoder``'s quantiser hands its writer for one strip: the strip's rows as the
/// codec takes them, or already compressed on the render thread (a PNG's image data, filtered
/// and deflated; a deflate TIFF's strips).
public struct EncodedStrip: Sendable {
    /// The rows' samples, or their compressed bytes.
    public var bytes: [UInt8]
    /// Set when `bytes` is a PNG deflate segment (see ``PNGStrips``).
    var segment: dr_png_segment?
    /// Set when `bytes` are TIFF deflate strips, one after the other: their lengths (see ``TIFFStrips``).
    var tiffStrips: [Int]?

    init(bytes: [UInt8], segment: dr_png_segment? = nil, tiffStrips: [Int]? = nil) {
        self.bytes = bytes
        self.segment = segment
        self.tiffStrips = tiffStrips
    }
}
