import DarkroomCore

/// One image written for each input: where, in what format, through which chain.
public struct OutputConfig: Sendable, Equatable {
    /// Absolute; may hold the placeholders of ``OutputTemplate``: `{stem}`, `{name}`, `{ext}`, `{watch}`.
    public var pathTemplate: String
    /// Given, or inferred from the template's extension.
    public var format: OutputFormat
    /// JPEG, WebP and AVIF quality 1…100 (TIFF's with `compression: jpeg`); default 90.
    public var quality: Int
    /// Progressive JPEG (interlaced PNG); default false.
    public var progressive: Bool
    /// Orientation and colour handling: `auto_orient`, `color`, `intent`.
    public var color: OutputColor
    /// Chroma, bit depth, compression and metadata.
    public var encoding: OutputEncoding
    /// The filters, applied in order. Empty means the input is re-encoded as it is.
    public var chain: ChainSpec

    public init(pathTemplate: String, format: OutputFormat, quality: Int = 90,
                progressive: Bool = false, color: OutputColor = OutputColor(), encoding: OutputEncoding = .init(),
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

/// The encoders darkroom writes with.
public enum OutputFormat: String, Sendable, Equatable, CaseIterable {
    case png, jpeg, webp, avif, tiff

    /// The format a file extension names (`jpg`, `JPEG`, `png`, `webp`, `avif`, `tif`, `tiff`), if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        case "tif", "tiff": self = .tiff
        default: return nil
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: rawValue
        }
    }
}
