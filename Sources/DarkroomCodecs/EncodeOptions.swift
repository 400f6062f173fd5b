import DarkroomCore

/// How `ImageCodec.encode` and ``ImageEncoder`` write an image.
public struct EncodeOptions: Sendable, Equatable {
    public var format: ImageFormat
    /// The output options (``OutputOption/all``): quality, chroma, bit depth, compression, …
    public var encoding: OutputEncoding
    /// JPEG: Huffman tables computed for the image (a few per cent smaller, one more pass over
    /// the coefficients); ignored for PNG. libjpeg must then hold the whole image's DCT
    /// coefficients (2 bytes a sample) until the last row, which breaks streaming, so nil (the
    /// default) optimises only outputs of at most ``optimizedCodingMaxPixels`` (thumbnails and
    /// web sizes; ImageMagick likewise optimises only when the buffer fits its memory limit,
    /// libvips never by default).
    public var optimizeCoding: Bool?
    /// 4 megapixels: a coefficient buffer of at most 24 MB (4:4:4).
    public static let optimizedCodingMaxPixels = 4_000_000
    /// AVIF is written 10-bit only when asked (`bitDepth == 10`, through libavif, since libheif
    /// 1.15 with libaom 3.6 aborts on 10-bit); 8-bit otherwise, whatever the source's depth, so an
    /// output keeps the size and speed it had.
    public var avifIsTenBit: Bool { format == .avif && bitDepth == 10 }

    /// TIFF compressions.
    public enum TIFFCompression: String, Sendable, Equatable, CaseIterable {
        case none, lzw, deflate, jpeg
    }
    /// The input's metadata, carried into the file as `metadataPolicy` says (nil: none).
    public var metadata: ImageMetadata?
    /// Which of it: the encoding's `metadata` and `gps`.
    public var metadataPolicy: MetadataPolicy {
        get { MetadataPolicy(encoding.metadata, gps: encoding.gps) }
        set { (encoding.metadata, encoding.gps) = (newValue.content, newValue.gps) }
    }
    /// The pixels were turned upright from the input's EXIF orientation: the EXIF Orientation
    /// written is then 1. When false the pixels are as stored and the orientation is kept.
    public var orientationApplied: Bool = false
    /// The pixels were converted to sRGB from another profile: EXIF ColorSpace becomes 1.
    public var convertedToSRGB: Bool = false
    /// An ICC profile to embed (JPEG APP2, PNG iCCP); nil writes an untagged file.
    public var icc: [UInt8]?
    /// JPEG, PNG and TIFF: an open, empty file the encoder writes into as it encodes (`pwrite`
    /// from offset 0), so the encoded file is never held in memory; the caller owns the
    /// descriptor and places the file. WebP and AVIF ignore it and are returned as bytes
    /// (see ``writesToDestination``).
    public var destination: Int32?

    /// Whether the format's encoder can write into a ``destination`` as it goes (the others
    /// encode a whole picture at the end, in memory).
    public var canWriteToDestination: Bool { format == .jpeg || format == .png || format == .tiff || format == .gif }

    /// GIF: how hard libimagequant works on a palette, 1 (fastest) … 10; libvips' default is 7.
    public var paletteEffort: Int = 7
    /// Set by the renderer for an animation: the frames end with ``ImageEncoder/endFrame(delay:)``
    /// and the file is played `loopCount` times (0: forever).
    public var animated: Bool = false
    public var loopCount: Int = 0

    /// GIF: palette entries a frame, 2…256 (libimagequant picks them for each frame).
    public var colors: Int { get { encoding.colors } set { encoding.colors = newValue } }
    /// GIF: Floyd–Steinberg dithering strength, 0 (none) … 1 (full).
    public var dither: Double { get { encoding.dither } set { encoding.dither = newValue } }
    /// An animated input's frames: all of them, or the first (as the format allows; see ``OutputOption/frames``).
    public var frames: Frames {
        get { encoding.value(.frames, for: format)?.word.flatMap(Frames.init(rawValue:)) ?? .first }
        set { encoding.frames = newValue }
    }

    /// Which frames of an animated input an output holds.
    public enum Frames: String, Sendable, Equatable, CaseIterable {
        /// The first frame only, as a still image.
        case first
        /// Every frame (GIF and WebP outputs).
        case all
    }

    /// Whether an input of `pages` frames in `format` is rendered frame by frame into this output.
    public func rendersFrames(of format: ImageFormat, pages: Int) -> Bool {
        pages > 1 && format.canAnimate && self.format.canAnimate && frames == .all
    }

    /// Whether the encoder writes into ``destination`` rather than returning bytes.
    public var writesToDestination: Bool { destination != nil && canWriteToDestination }

    /// Options for `format` with the output options of `encoding`; the arguments given override them.
    public init(format: ImageFormat, encoding: OutputEncoding = OutputEncoding(), quality: Int? = nil, progressive: Bool? = nil,
                chroma: Chroma? = nil, optimizeCoding: Bool? = nil, bitDepth: Int? = nil, compression: Int? = nil,
                icc: [UInt8]? = nil) {
        self.format = format
        self.encoding = encoding
        if let quality { self.encoding.quality = quality }
        if let progressive { self.encoding.progressive = progressive }
        if let chroma { self.encoding.chroma = chroma }
        if let bitDepth { self.encoding.bitDepth = bitDepth }
        if let compression { self.encoding.compression = compression }
        self.optimizeCoding = optimizeCoding
        self.icc = icc
    }

    /// JPEG, WebP and AVIF quality 1…100 (clamped); also TIFF's with `tiffCompression: .jpeg`.
    public var quality: Int { get { encoding.quality } set { encoding.quality = newValue } }
    /// Progressive JPEG (PNG is never interlaced).
    public var progressive: Bool { get { encoding.progressive } set { encoding.progressive = newValue } }
    /// JPEG chroma sampling.
    public var chroma: Chroma { get { encoding.chroma } set { encoding.chroma = newValue } }
    /// PNG and TIFF bits per sample, 8 or 16; nil: as the input (16 for a 16-bit source, 8
    /// otherwise). AVIF: 8 or 10; nil is 8 (see ``avifIsTenBit``). JPEG and WebP are always 8.
    public var bitDepth: Int? { get { encoding.bitDepth } set { encoding.bitDepth = newValue } }
    /// PNG zlib level 0 (none, fastest) … 9 (smallest).
    public var compression: Int { get { encoding.compression } set { encoding.compression = newValue } }
    /// TIFF: how the strips or tiles are compressed.
    public var tiffCompression: TIFFCompression { get { encoding.tiffCompression } set { encoding.tiffCompression = newValue } }
    /// TIFF: 256×256 tiles instead of strips.
    public var tiled: Bool { get { encoding.tiled } set { encoding.tiled = newValue } }
    /// WebP: lossless (the pixels come back exactly) instead of lossy.
    public var lossless: Bool { get { encoding.lossless } set { encoding.lossless = newValue } }
    /// WebP: how hard the encoder works, 0 (fastest) … 6 (smallest); libwebp's `method`.
    public var effort: Int { get { encoding.effort } set { encoding.effort = newValue } }
    /// PNG: 0 rows unfiltered, full deflate (the smallest for flat graphics); 1 (the default) a
    /// filter per row (libpng's choice: the least sum of the filtered bytes' magnitudes), deflate
    /// matching runs only (photos: about as small as 2, in a third of the deflate time); 2 a
    /// filter per row, full deflate at ``compression``. The `effort` option's PNG form, whose
    /// default is declared there (so the value is never nil).
    public var pngEffort: Int {
        get { encoding.value(.effort, for: .png)!.integer! }
        set { encoding.effort = newValue }
    }
    /// AVIF: libaom's speed, 0 (slowest, smallest) … 9.
    public var speed: Int { get { encoding.speed } set { encoding.speed = newValue } }

    /// JPEG chroma (colour difference) sampling.
    public enum Chroma: String, Sendable, Equatable, CaseIterable {
        /// 4:4:4 at quality 90 and above (where 4:2:0 would cost about 2 dB), 4:2:0 below: what
        /// libvips and ImageMagick do.
        case auto
        /// Chroma at half the resolution both ways: smaller files, colour edges soften.
        case subsampled420 = "420"
        /// Chroma at full resolution.
        case full444 = "444"
    }

    /// Whether a JPEG of `size` gets Huffman tables optimised for it.
    func optimizesCoding(for size: Size) -> Bool { optimizeCoding ?? (size.area <= Self.optimizedCodingMaxPixels) }

    /// `option`'s whole number in force, held to the range the table gives it for this format
    /// (a program may set any number; the config and `process` refuse one outside it).
    func clamped(_ option: OutputOption) -> Int32 {
        let value = encoding.integer(option) ?? 0
        guard case .integer(let range)? = option.form(for: format)?.kind else { return Int32(clamping: value) }
        return Int32(min(max(value, range.lowerBound), range.upperBound))
    }

    /// The quality from which `chroma: auto` keeps full chroma.
    static let fullChromaQuality = 90

    /// Whether a JPEG is written 4:4:4.
    var usesFullChroma: Bool {
        switch chroma {
        case .auto: clamped(.quality) >= Self.fullChromaQuality
        case .subsampled420: false
        case .full444: true
        }
    }
}
