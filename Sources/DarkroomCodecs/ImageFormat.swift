import CDarkroomCodecs

/// The file formats darkroom reads, and writes where ``isWritable``. What is known about each
/// (its name, extensions, whether it is written, animates or is drawn) is declared once, in
/// ``facts``; every list a user reads is made from it: the "not an image" messages, the default
/// `include` patterns, `darkroom formats`, the docs, and the checks of the man pages.
///
/// How to add an input format: a case here (in the order help lists formats) with its line in
/// ``facts``, the C sniffer's `DR_FORMAT_…` code and reader in Sources/CDarkroomCodecs, a fixture
/// in Tests/DarkroomCodecsTests/Fixtures, and a note in `FormatHelpText`; then regenerate the
/// docs (`darkroom formats --markdown > docs/output-options.md`).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp
    /// GIF, still or animated: in through giflib, out through libimagequant and cgif.
    case gif
    case avif
    /// JPEG XL, a bare codestream or in its container: in and out through libjxl.
    case jxl
    /// HEIF with HEVC images (HEIC, what phones write).
    case heif
    case tiff
    /// Camera RAW (DNG, CR2, CR3, NEF, ARW, …), developed by libraw.
    case raw
    /// PDF: one page rendered by poppler (docs/pdf-and-svg.md).
    case pdf
    /// SVG (gzip'd too): rendered by librsvg.
    case svg

    /// What darkroom knows of a format, declared once per format in ``ImageFormat/facts``.
    public struct Facts: Sendable {
        /// How people write its name: "JPEG XL", "WebP", "camera RAW".
        public let displayName: String
        /// The file extensions that name it, the usual one first ("jpg", "jpeg", "jpe").
        public let fileExtensions: [String]
        /// Whether darkroom writes it (every format is read).
        public let isWritable: Bool
        /// Whether a file can hold an animation, which darkroom reads and writes frame by frame.
        public let canAnimate: Bool
        /// Whether it is drawn rather than stored as pixels (rendered at a DPI or at a size).
        public let isVector: Bool
        /// What the C sniffer (`dr_sniff`) answers for it.
        let sniffed: dr_format

        init(_ displayName: String, _ fileExtensions: [String], _ sniffed: dr_format,
             writable: Bool = false, animates: Bool = false, vector: Bool = false) {
            self.displayName = displayName
            self.fileExtensions = fileExtensions
            self.sniffed = sniffed
            self.isWritable = writable
            self.canAnimate = animates
            self.isVector = vector
        }
    }

    /// The one table of formats.
    public var facts: Facts {
        switch self {
        case .jpeg: Facts("JPEG", ["jpg", "jpeg", "jpe"], DR_FORMAT_JPEG, writable: true)
        case .png: Facts("PNG", ["png"], DR_FORMAT_PNG, writable: true)
        case .webp: Facts("WebP", ["webp"], DR_FORMAT_WEBP, writable: true, animates: true)
        case .gif: Facts("GIF", ["gif"], DR_FORMAT_GIF, writable: true, animates: true)
        case .avif: Facts("AVIF", ["avif"], DR_FORMAT_AVIF, writable: true)
        case .jxl: Facts("JPEG XL", ["jxl"], DR_FORMAT_JXL, writable: true)
        case .heif: Facts("HEIF", ["heic", "heif", "hif"], DR_FORMAT_HEIF)
        case .tiff: Facts("TIFF", ["tif", "tiff"], DR_FORMAT_TIFF, writable: true)
        case .raw: Facts("camera RAW", ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"], DR_FORMAT_RAW)
        case .pdf: Facts("PDF", ["pdf"], DR_FORMAT_PDF, vector: true)
        case .svg: Facts("SVG", ["svg", "svgz"], DR_FORMAT_SVG, vector: true)
        }
    }

    /// The format `bytes` are in, by their signature (never by a file name), or nil when none
    /// darkroom reads. HEIF and AVIF are told apart by the brands of their `ftyp` box, a
    /// TIFF-based camera RAW from a TIFF by its first directory (`dr_sniff`: the first
    /// ``ImageInput/headLength`` bytes decide).
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        let format = bytes.withUnsafeBufferPointer { dr_sniff($0.baseAddress, $0.count) }
        return ImageFormat(cFormat: format)
    }

    init?(cFormat: Int32) {
        guard let format = (Self.allCases.first { Int32($0.facts.sniffed.rawValue) == cFormat }) else { return nil }
        self = format
    }

    /// How people write the format's name ("JPEG XL").
    public var displayName: String { facts.displayName }

    /// The file extensions that name it, the usual one first ("jpg", "jpeg", "jpe").
    public var fileExtensions: [String] { facts.fileExtensions }

    /// The usual file extension, without the dot.
    public var fileExtension: String { fileExtensions[0] }

    /// Whether darkroom can write it.
    public var isWritable: Bool { facts.isWritable }

    /// Whether a file can hold an animation, which darkroom reads and writes frame by frame.
    public var canAnimate: Bool { facts.canAnimate }

    /// Whether it is drawn rather than stored as pixels: a PDF page or an SVG, rendered at a DPI
    /// or at the size a following resize asks for.
    public var isVector: Bool { facts.isVector }

    /// Whether a file can hold one colour channel (WebP and AVIF as darkroom writes them are RGB).
    public var holdsGrey: Bool { self == .png || self == .jpeg || self == .tiff }

    /// Whether the format carries EXIF and XMP (GIF has no block darkroom writes them into).
    public var holdsMetadata: Bool { self != .gif }

    /// The format a file extension names ("png", "jpg", "tif", "heic", …; any case, with or
    /// without the dot).
    public static func fromExtension(_ ext: String) -> ImageFormat? {
        var lowered = ext.lowercased()
        if lowered.hasPrefix(".") { lowered.removeFirst() }
        return allCases.first { $0.fileExtensions.contains(lowered) }
    }

    /// The formats darkroom writes, in the order the help names them.
    public static let writableFormats: [ImageFormat] = allCases.filter(\.isWritable)

    /// The words that name a format darkroom writes, as `format:` and `--format` take them:
    /// each format's name and its file extensions ("jpeg", "jpg", "jpe", "png", …).
    public static var writableWords: [String] {
        var words = [String]()
        for format in writableFormats {
            for word in [format.rawValue] + format.fileExtensions where !words.contains(word) { words.append(word) }
        }
        return words
    }

    /// "jpeg, png, webp, gif, avif, jxl or tiff": the words `format:` takes.
    public static var writableList: String { sentence(writableFormats.map(\.rawValue)) }

    /// "JPEG, PNG, WebP, GIF, AVIF, JPEG XL, HEIF, TIFF, camera RAW, PDF or SVG": what darkroom reads.
    public static var readableList: String { sentence(allCases.map(\.displayName)) }

    /// "*.jpg", "*.jpeg", …: a glob for every extension of every format, the watch's default `include`.
    public static var extensionGlobs: [String] { allCases.flatMap(\.fileExtensions).map { "*." + $0 } }

    /// The message of a file whose first bytes are no format's (the C sniffer returns only
    /// `DR_NOT_AN_IMAGE`, and its words come from here).
    public static var unrecognisedMessage: String { "not a \(readableList) file (unrecognised signature)" }

    /// The format darkroom writes for a file extension ("jpg", "tif", …), or nil (the format is
    /// read only, or no format's).
    public static func writable(fileExtension ext: String) -> ImageFormat? {
        fromExtension(ext).flatMap { $0.isWritable ? $0 : nil }
    }

    /// "a, b or c"
    private static func sentence(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
