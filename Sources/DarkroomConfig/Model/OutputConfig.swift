import DarkroomCodecs
import DarkroomCore

/// One image written for each input: where, in what format, through which chain.
public struct OutputConfig: Sendable, Equatable {
    /// Absolute; may hold the placeholders of ``OutputTemplate``: `{stem}`, `{name}`, `{ext}`, `{watch}`.
    public var pathTemplate: String
    /// Given, or inferred from the template's extension.
    public var format: ImageFormat
    /// Orientation and colour handling: `auto_orient`, `color`, `intent`.
    public var color: ColorOptions
    /// The output options: quality, chroma, bit depth, compression, metadata, … (``OutputOption/all``).
    public var encoding: OutputEncoding
    /// The filters, applied in order. Empty means the input is re-encoded as it is.
    public var chain: ChainSpec

    /// `quality` and `progressive`, when given, override `encoding`'s.
    public init(pathTemplate: String, format: ImageFormat, quality: Int? = nil,
                progressive: Bool? = nil, color: ColorOptions = ColorOptions(), encoding: OutputEncoding = .init(),
                chain: ChainSpec) {
        self.color = color
        self.pathTemplate = pathTemplate
        self.format = format
        self.encoding = encoding
        if let quality { self.encoding.quality = quality }
        if let progressive { self.encoding.progressive = progressive }
        self.chain = chain
    }

    /// JPEG, WebP and AVIF quality 1…100 (TIFF's with `compression: jpeg`).
    public var quality: Int { get { encoding.quality } set { encoding.quality = newValue } }
    /// Progressive JPEG.
    public var progressive: Bool { get { encoding.progressive } set { encoding.progressive = newValue } }
}
