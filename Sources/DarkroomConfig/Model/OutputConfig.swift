import DarkroomCodecs
import DarkroomCore

/// One image written for each input: where, in what format, through which chain.
public struct OutputConfig: Sendable, Equatable {
    /// Absolute; may hold the placeholders of ``OutputTemplate``: `{stem}`, `{name}`, `{ext}`, `{watch}`.
    public var pathTemplate: String
    /// Given, or inferred from the template's extension.
    public var format: ImageFormat
    /// JPEG, WebP and AVIF quality 1…100 (TIFF's with `compression: jpeg`); default 90.
    public var quality: Int
    /// Progressive JPEG (interlaced PNG); default false.
    public var progressive: Bool
    /// Orientation and colour handling: `auto_orient`, `color`, `intent`.
    public var color: ColorOptions
    /// Chroma, bit depth, compression and metadata.
    public var encoding: OutputEncoding
    /// The filters, applied in order. Empty means the input is re-encoded as it is.
    public var chain: ChainSpec

    public init(pathTemplate: String, format: ImageFormat, quality: Int = 90,
                progressive: Bool = false, color: ColorOptions = ColorOptions(), encoding: OutputEncoding = .init(),
                chain: ChainSpec) {
        self.color = color
        self.pathTemplate = pathTemplate
        self.format = format
        self.quality = quality
        self.progressive = progressive
        self.encoding = encoding
        self.chain = chain
    }
}
