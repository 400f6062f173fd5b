/// The output options: the one table (see ``OutputOption`` for how to add one).
extension OutputOption {
    public static let quality = OutputOption(
        "quality", "Lossy quality; TIFF's with compression: jpeg. JPEG XL: mapped to a distance as cjxl maps it (90 is distance 1, 100 lossless).",
        [Form([.jpeg, .webp, .avif, .jxl, .tiff], .integer(1...100), default: .integer(90))])

    public static let distance = OutputOption(
        "distance", "JPEG XL's own lossy setting, in place of quality: the visual error aimed at (1 is visually lossless, 0 lossless).",
        [Form([.jxl], .number(0...15), default: nil, defaultText: "from quality")],
        excludes: Exclusion(["quality"], reason: "both set JPEG XL's loss (quality is mapped to a distance)"))

    public static let progressive = OutputOption(
        "progressive", "Progressive JPEG (a coarse picture first, refined as it loads).",
        [Form([.jpeg], .boolean, default: .boolean(false))])

    public static let chroma = OutputOption(
        "chroma", "Chroma sampling: auto is 4:4:4 at quality \(EncodeOptions.fullChromaQuality) and above, 4:2:0 below.",
        [Form([.jpeg], .choice(EncodeOptions.Chroma.allCases.map(\.rawValue)), default: .word(EncodeOptions.Chroma.auto.rawValue))])

    public static let bitDepth = OutputOption(
        "bit_depth", "Bits per sample.",
        [Form([.png, .tiff], .integerChoice([8, 16]), default: nil, defaultText: "as the input"),
         Form([.avif], .integerChoice([8, 10]), default: nil, defaultText: "8; 10 through libavif"),
         Form([.jxl], .integerChoice([8, 16]), default: nil, defaultText: "as the input")],
        refusals: [.jpeg: "JPEG is always 8-bit", .webp: "WebP is always 8-bit"])

    public static let compression = OutputOption(
        "compression", "PNG: zlib level, 0 fastest to 9 smallest. TIFF: how strips or tiles are compressed.",
        [Form([.png], .integer(0...9), default: .integer(6)),
         Form([.tiff], .choice(EncodeOptions.TIFFCompression.allCases.map(\.rawValue)),
              default: .word(EncodeOptions.TIFFCompression.none.rawValue))],
        refusals: Dictionary(uniqueKeysWithValues: [ImageFormat.jpeg, .webp, .avif].map {
            ($0, "the size of JPEG, WebP and AVIF is set by quality")
        }))

    public static let lossless = OutputOption(
        "lossless", "Lossless WebP or JPEG XL: the pixels come back exactly.",
        [Form([.webp, .jxl], .boolean, default: .boolean(false))])

    public static let losslessJPEG = OutputOption(
        "lossless_jpeg", "A JPEG input transcoded without decoding (empty chain only): the JPEG XL gives back the original JPEG byte for byte, about a fifth smaller.",
        [Form([.jxl], .boolean, default: .boolean(false))],
        excludes: Exclusion(when: .boolean(true), ["quality", "distance", "lossless", "bit_depth", "metadata", "gps", "color", "intent", "auto_orient"],
                            reason: "the JPEG XL rebuilds the JPEG byte for byte, with its own pixels, profile, orientation and metadata"))

    public static let effort = OutputOption(
        "effort", "How hard the encoder works. WebP: 0 fastest, 6 smallest (libwebp's method). PNG: 0 rows unfiltered "
            + "and full deflate (flat graphics, screenshots: smallest there), 1 a filter per row and run-length matching "
            + "(photos: fastest, as small as 2), 2 a filter per row and full deflate. "
            + "JPEG XL: 1 fastest, 9 smallest (cjxl's effort).",
        [Form([.webp], .integer(0...6), default: .integer(4)),
         Form([.jxl], .integer(1...9), default: .integer(7)),
         Form([.png], .integer(0...2), default: .integer(1))])

    public static let speed = OutputOption(
        "speed", "libaom's speed: 0 slowest and smallest, 9 fastest.",
        [Form([.avif], .integer(0...9), default: .integer(5))])

    public static let tiled = OutputOption(
        "tiled", "256×256 tiles instead of strips.",
        [Form([.tiff], .boolean, default: .boolean(false))])

    public static let metadata = OutputOption(
        "metadata", "Which of the input's EXIF, XMP and IPTC are carried over (copyright: only who made and owns the picture).",
        [Form(ImageFormat.writableFormats.filter(\.holdsMetadata), .choice(MetadataPolicy.Content.allCases.map(\.rawValue)),
              default: .word(MetadataPolicy.Content.keep.rawValue))])

    public static let gps = OutputOption(
        "gps", "Keep the GPS position (with metadata: keep); false (--no-gps) removes it.",
        [Form(ImageFormat.writableFormats.filter(\.holdsMetadata), .boolean, default: .boolean(true))])

    public static let colors = OutputOption(
        "colors", "Palette entries a frame (libimagequant builds the palettes; an animation's hold at most 255).",
        [Form([.gif], .integer(2...256), default: .integer(256))])

    public static let dither = OutputOption(
        "dither", "Floyd–Steinberg dithering strength: 0 none, 1 full.",
        [Form([.gif], .number(0...1), default: .number(1))])

    public static let frames = OutputOption(
        "frames", "An animated GIF or WebP input: every frame (an animated output) or the first (a still image).",
        [Form(ImageFormat.writableFormats.filter(\.canAnimate), .choice(EncodeOptions.Frames.allCases.map(\.rawValue)),
              default: .word(EncodeOptions.Frames.all.rawValue)),
         Form(ImageFormat.writableFormats.filter { !$0.canAnimate }, .choice([EncodeOptions.Frames.first.rawValue]),
              default: .word(EncodeOptions.Frames.first.rawValue))])

    // Read-side options: every output decodes its input anew, so they are set per output, and
    // every format takes them (they apply to the input, whatever the output's format).

    public static let whiteBalance = OutputOption(
        "white_balance", "A camera RAW input's white balance: as shot (camera), grey world over the image (auto), "
            + "or the camera's daylight multipliers.",
        [Form(ImageFormat.writableFormats, .choice(RawDecoding.WhiteBalance.allCases.map(\.rawValue)),
              default: .word(RawDecoding.WhiteBalance.camera.rawValue))])

    public static let rawPreview = OutputOption(
        "raw_preview", "A camera RAW input: read its embedded JPEG preview instead of developing the raw data (fast; "
            + "the camera's own rendering, at the preview's size).",
        [Form(ImageFormat.writableFormats, .boolean, default: .boolean(false))])

    public static let page = OutputOption(
        "page", "A PDF input: the page drawn (1 the first; an SVG has one). Applies to PDF and SVG inputs only.",
        [Form(ImageFormat.writableFormats, .integer(1...1_000_000), default: .integer(1))])

    public static let pages = OutputOption(
        "pages", "A PDF input: first draws `page` only; all writes one output per page, {page} in the path numbering them. "
            + "Applies to PDF and SVG inputs only.",
        [Form(ImageFormat.writableFormats, .choice(VectorPage.Pages.allCases.map(\.rawValue)),
              default: .word(VectorPage.Pages.first.rawValue))])

    public static let dpi = OutputOption(
        "dpi", "A PDF or SVG input: the resolution it is drawn at (PDF points are 1/72 inch, SVG user units 1/96); "
            + "a leading resize draws it at the resize's size instead. Applies to PDF and SVG inputs only.",
        [Form(ImageFormat.writableFormats, .number(1...2400), default: .number(VectorPage.defaultDPI))])

    /// Every output option, in the order the help lists them.
    public static let all: [OutputOption] = [
        quality, distance, progressive, chroma, bitDepth, compression, lossless, losslessJPEG, effort, speed, tiled, colors, dither, frames, page, pages, dpi,
        whiteBalance, rawPreview, metadata, gps,
    ]
}
