import DarkroomCodecs

/// How an output's file is encoded beyond its format and quality: JPEG chroma, PNG and TIFF
/// depth and compression, WebP's and AVIF's encoder settings, TIFF's layout, and which metadata
/// is carried over from the input.
public struct OutputEncoding: Sendable, Equatable {
    /// JPEG chroma sampling (`chroma:`); default auto.
    public var chroma: EncodeOptions.Chroma
    /// PNG and TIFF bits per sample (`bit_depth: 8 | 16`); nil: as the input (16 for a 16-bit
    /// source). AVIF: `bit_depth: 8 | 10`; nil is 8.
    public var bitDepth: Int?
    /// PNG zlib level 0…9 (`compression:`); default 6.
    public var compression: Int
    /// TIFF compression (`compression: none | lzw | deflate | jpeg`); default none.
    public var tiffCompression: EncodeOptions.TIFFCompression = .none
    /// TIFF in 256×256 tiles instead of strips (`tiled:`); default false.
    public var tiled: Bool = false
    /// WebP lossless (`lossless:`); default false.
    public var lossless: Bool = false
    /// WebP encoder effort 0…6 (`effort:`, libwebp's method); default 4.
    public var effort: Int = 4
    /// AVIF encoder speed 0…9 (`speed:`, libaom's); default 5.
    public var speed: Int = 5
    /// GIF palette entries a frame, 2…256 (`colors:`); default 256.
    public var colors: Int = 256
    /// GIF dithering strength 0…1 (`dither:`); default 1 (full Floyd–Steinberg).
    public var dither: Double = 1
    /// An animated input's frames (`frames: first | all`); default all where the output's format
    /// animates (GIF, WebP), else the first.
    public var frames: EncodeOptions.Frames = .auto

    /// Which of the input's EXIF, XMP and IPTC go into the output (`metadata:`).
    public var metadata: MetadataPolicy.Content
    /// Whether GPS position survives (`gps: false` removes it); only with `metadata: keep`.
    public var gps: Bool

    public init(chroma: EncodeOptions.Chroma = .auto, bitDepth: Int? = nil, compression: Int = 6,
                metadata: MetadataPolicy.Content = .keep, gps: Bool = true) {
        self.chroma = chroma
        self.bitDepth = bitDepth
        self.compression = compression
        self.metadata = metadata
        self.gps = gps
    }
}
