/// How `ImageCodec.encode` writes an image.
public struct EncodeOptions: Sendable, Equatable {
    public var format: ImageFormat
    /// JPEG quality 1…100 (clamped); ignored for PNG.
    public var quality: Int = 90
    /// Progressive JPEG; ignored for PNG (PNG is never interlaced).
    public var progressive: Bool = false
    /// An ICC profile to embed (JPEG APP2, PNG iCCP); nil writes an untagged file.
    public var icc: [UInt8]?

    public init(format: ImageFormat, quality: Int = 90, progressive: Bool = false, icc: [UInt8]? = nil) {
        self.format = format
        self.quality = quality
        self.progressive = progressive
        self.icc = icc
    }
}
