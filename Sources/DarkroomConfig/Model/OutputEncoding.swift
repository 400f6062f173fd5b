/// How an output's file is encoded beyond its format and quality: JPEG chroma, PNG depth and
/// compression, and which metadata is carried over from the input.
public struct OutputEncoding: Sendable, Equatable {
    /// JPEG chroma sampling (`chroma:`); default auto.
    public var chroma: Chroma
    /// PNG bits per sample (`bit_depth: 8 | 16`); nil: as the input (16 for a 16-bit PNG).
    public var bitDepth: Int?
    /// PNG zlib level 0…9 (`compression:`); default 6.
    public var compression: Int
    /// Which of the input's EXIF, XMP and IPTC go into the output (`metadata:`).
    public var metadata: Metadata
    /// Whether GPS position survives (`gps: false` removes it); only with `metadata: keep`.
    public var gps: Bool

    public init(chroma: Chroma = .auto, bitDepth: Int? = nil, compression: Int = 6,
                metadata: Metadata = .keep, gps: Bool = true) {
        self.chroma = chroma
        self.bitDepth = bitDepth
        self.compression = compression
        self.metadata = metadata
        self.gps = gps
    }

    /// JPEG chroma sampling.
    public enum Chroma: String, Sendable, Equatable, CaseIterable {
        /// 4:4:4 at quality 90 and above, 4:2:0 below.
        case auto
        case subsampled420 = "420"
        case full444 = "444"
    }

    /// Which metadata an output carries.
    public enum Metadata: String, Sendable, Equatable, CaseIterable {
        /// EXIF (orientation, size and thumbnail brought up to date), XMP and IPTC.
        case keep
        /// None of them.
        case strip
        /// Only who made the picture and who owns it: EXIF Artist and Copyright, XMP dc:creator,
        /// dc:rights and xmpRights, IPTC by-line, credit, source and copyright notice.
        case copyright
    }
}
