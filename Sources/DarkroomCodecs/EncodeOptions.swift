/// How `ImageCodec.encode` writes an image.
public struct EncodeOptions: Sendable, Equatable {
    public var format: ImageFormat
    /// JPEG quality 1…100 (clamped); ignored for PNG.
    public var quality: Int = 90
    /// Progressive JPEG; ignored for PNG (PNG is never interlaced).
    public var progressive: Bool = false

    public init(format: ImageFormat, quality: Int = 90, progressive: Bool = false) {
        self.format = format
        self.quality = quality
        self.progressive = progressive
    }
}
