/// The output options one output sets (`quality: 80`, `lossless: true`, …), as written; an
/// option left out reads as its default from the table (``OutputOption/all``). Two encodings
/// are equal when every option reads the same.
public struct OutputEncoding: Sendable, Equatable {
    private var written: [String: OutputOption.Value] = [:]

    public init() {}

    /// The value written for `option`, or nil.
    public subscript(option: OutputOption) -> OutputOption.Value? {
        get { written[option.name] }
        set { written[option.name] = newValue }
    }

    /// The value in force when writing `format`: as written (if the format's form takes such a
    /// value), else the form's default. Nil when the encoder decides, or `format` has no use for it.
    public func value(_ option: OutputOption, for format: ImageFormat) -> OutputOption.Value? {
        guard let form = option.form(for: format) else { return nil }
        if let value = written[option.name], form.kind.holds(value) { return value }
        return form.defaultValue
    }

    /// The whole number in force for `option`: as written, else the default of its form that takes numbers.
    public func integer(_ option: OutputOption) -> Int? {
        written[option.name]?.integer ?? option.forms.lazy.compactMap { $0.defaultValue?.integer }.first
    }

    /// The truth value in force for `option`.
    public func boolean(_ option: OutputOption) -> Bool {
        written[option.name]?.boolean ?? option.forms.lazy.compactMap { $0.defaultValue?.boolean }.first ?? false
    }

    /// The word in force for `option`, turned into `E`: as written, else the default of its form that takes `E`'s words.
    public func choice<E: RawRepresentable<String>>(_ option: OutputOption, _: E.Type = E.self) -> E {
        if let word = written[option.name]?.word, let value = E(rawValue: word) { return value }
        return option.forms.lazy.compactMap { $0.defaultValue?.word.flatMap(E.init(rawValue:)) }.first!
    }

    public static func == (a: OutputEncoding, b: OutputEncoding) -> Bool {
        OutputOption.all.allSatisfy { option in
            option.forms.allSatisfy { a.value(option, for: $0.formats[0]) == b.value(option, for: $0.formats[0]) }
        }
    }
}

/// Typed access to each option, for the encoders and for programs that build an output.
extension OutputEncoding {
    /// JPEG, WebP and AVIF quality 1…100 (TIFF's with `compression: jpeg`).
    public var quality: Int {
        get { integer(.quality)! }
        set { self[.quality] = .integer(newValue) }
    }
    /// Progressive JPEG.
    public var progressive: Bool {
        get { boolean(.progressive) }
        set { self[.progressive] = .boolean(newValue) }
    }
    /// JPEG chroma sampling.
    public var chroma: EncodeOptions.Chroma {
        get { choice(.chroma) }
        set { self[.chroma] = .word(newValue.rawValue) }
    }
    /// PNG and TIFF bits per sample, 8 or 16; nil: as the input (16 for a 16-bit source). AVIF:
    /// 8 or 10; nil is 8.
    public var bitDepth: Int? {
        get { self[.bitDepth]?.integer }
        set { self[.bitDepth] = newValue.map(OutputOption.Value.integer) }
    }
    /// PNG zlib level 0…9.
    public var compression: Int {
        get { integer(.compression)! }
        set { self[.compression] = .integer(newValue) }
    }
    /// TIFF compression.
    public var tiffCompression: EncodeOptions.TIFFCompression {
        get { choice(.compression) }
        set { self[.compression] = .word(newValue.rawValue) }
    }
    /// TIFF in 256×256 tiles instead of strips.
    public var tiled: Bool {
        get { boolean(.tiled) }
        set { self[.tiled] = .boolean(newValue) }
    }
    /// WebP lossless.
    public var lossless: Bool {
        get { boolean(.lossless) }
        set { self[.lossless] = .boolean(newValue) }
    }
    /// WebP encoder effort 0…6 (libwebp's method).
    public var effort: Int {
        get { integer(.effort)! }
        set { self[.effort] = .integer(newValue) }
    }
    /// AVIF encoder speed 0…9 (libaom's).
    public var speed: Int {
        get { integer(.speed)! }
        set { self[.speed] = .integer(newValue) }
    }
    /// Which of the input's EXIF, XMP and IPTC go into the output.
    public var metadata: MetadataPolicy.Content {
        get { choice(.metadata) }
        set { self[.metadata] = .word(newValue.rawValue) }
    }
    /// Whether the GPS position survives (`gps: false` removes it); only with `metadata: keep`.
    public var gps: Bool {
        get { boolean(.gps) }
        set { self[.gps] = .boolean(newValue) }
    }
    /// GIF palette entries a frame, 2…256.
    public var colors: Int {
        get { integer(.colors)! }
        set { self[.colors] = .integer(newValue) }
    }
    /// GIF dithering strength, 0…1.
    public var dither: Double {
        get { self[.dither]?.number ?? OutputOption.dither.forms[0].defaultValue!.number! }
        set { self[.dither] = .number(newValue) }
    }
    /// An animated input's frames, as written (the default depends on the format: see
    /// ``EncodeOptions/frames``).
    public var frames: EncodeOptions.Frames? {
        get { self[.frames]?.word.flatMap(EncodeOptions.Frames.init(rawValue:)) }
        set { self[.frames] = newValue.map { .word($0.rawValue) } }
    }

    /// A PDF input's page, 1-based (``OutputOption/page``).
    public var page: Int {
        get { integer(.page)! }
        set { self[.page] = .integer(newValue) }
    }
    /// A PDF input's pages: the one `page` names, or each to its own output.
    public var pages: VectorPage.Pages {
        get { choice(.pages) }
        set { self[.pages] = .word(newValue.rawValue) }
    }
    /// The resolution a PDF or SVG input is drawn at.
    public var dpi: Double {
        get { self[.dpi]?.number ?? VectorPage.defaultDPI }
        set { self[.dpi] = .number(newValue) }
    }
    /// The page and DPI a PDF or SVG input is drawn at for this output.
    public var vectorPage: VectorPage { VectorPage(page: page, dpi: dpi) }

    /// An encoding with the options given set (the others read as their defaults).
    public init(quality: Int? = nil, progressive: Bool? = nil, chroma: EncodeOptions.Chroma? = nil, bitDepth: Int? = nil,
                compression: Int? = nil, metadata: MetadataPolicy.Content? = nil, gps: Bool? = nil) {
        self.init()
        if let quality { self.quality = quality }
        if let progressive { self.progressive = progressive }
        if let chroma { self.chroma = chroma }
        self.bitDepth = bitDepth
        if let compression { self.compression = compression }
        if let metadata { self.metadata = metadata }
        if let gps { self.gps = gps }
    }
}
