import DarkroomCore

/// What a file's header says about the image, read without decoding pixels.
public struct ImageInfo: Sendable, Equatable, Codable {
    public var format: ImageFormat
    /// Size as stored in the file (before any JPEG shrink-on-load or EXIF orientation).
    public var width: Int
    public var height: Int
    /// Bits per sample as stored (PNG 1, 2, 4, 8 or 16; JPEG 8).
    public var bitDepth: Int
    /// Samples per pixel as stored (a palette PNG has 1).
    public var channels: Int
    /// "gray", "rgb", "cmyk", "ycck", "palette" (or "unknown" for an exotic JPEG).
    public var colorSpace: String
    /// An alpha channel, or a PNG tRNS chunk.
    public var hasAlpha: Bool
    /// EXIF orientation 1…8; 1 when the file has none.
    public var orientation: Int
    /// PNG Adam7 interlacing, or a progressive JPEG.
    public var interlaced: Bool
    /// Whether an ICC profile is embedded.
    public var hasICCProfile: Bool
    /// The embedded ICC profile, when it could be extracted.
    public var icc: ICCProfile?
    /// A problem the decoder forgave (stray bytes between JPEG segments, say); nil when none.
    public var warning: String?
    /// Pages of a TIFF, frames of an animated WebP, top-level images of a HEIF: only the first
    /// (HEIF: the primary) is read.
    public var pages: Int = 1
    /// HEIF and AVIF: libheif turns the image upright itself while decoding (the `irot` and
    /// `imir` properties are part of the image), so `orientation` is 1 and any EXIF
    /// Orientation the file carries is only informative (outputs reset it to 1).
    public var orientedByDecoder: Bool = false
    /// PDF and SVG: each page's size in points (1/72 inch), `pages` of them; `width` and
    /// `height` are then the first page at the default DPI (``VectorPage``).
    public var pageSizes: [PageSize] = []
    /// Camera RAW: the size of its embedded JPEG preview (0 × 0: none), which `raw_preview` reads.
    public var rawPreviewWidth: Int = 0
    public var rawPreviewHeight: Int = 0
    public var rawPreviewSize: Size? {
        rawPreviewWidth > 0 && rawPreviewHeight > 0 ? Size(width: rawPreviewWidth, height: rawPreviewHeight) : nil
    }

    public init(
        format: ImageFormat, width: Int, height: Int, bitDepth: Int, channels: Int,
        colorSpace: String, hasAlpha: Bool, orientation: Int = 1, interlaced: Bool = false,
        hasICCProfile: Bool = false, icc: ICCProfile? = nil, warning: String? = nil
    ) {
        self.icc = icc
        self.warning = warning
        self.format = format
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.channels = channels
        self.colorSpace = colorSpace
        self.hasAlpha = hasAlpha
        self.orientation = orientation
        self.interlaced = interlaced
        self.hasICCProfile = hasICCProfile
    }
}
