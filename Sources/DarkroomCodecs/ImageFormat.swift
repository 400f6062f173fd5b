import CDarkroomCodecs

/// The file formats darkroom reads and writes (HEIF, camera RAW, PDF and SVG are read only).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png, jpeg, tiff, webp
    /// GIF, still or animated: in through giflib, out through libimagequant and cgif.
    case gif
    /// HEIF with HEVC images (HEIC, what phones write); read only.
    case heif
    case avif
    /// JPEG XL, a bare codestream or in its container: in and out through libjxl.
    case jxl
    /// Camera RAW (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2), developed by libraw; read only.
    case raw
    /// PDF, read only: one page rendered by poppler (docs/pdf-and-svg.md).
    case pdf
    /// SVG, read only (gzip'd too): rendered by librsvg.
    case svg

    /// The format `bytes` are in, by their signature (never by a file name), or nil when none
    /// darkroom reads. HEIF and AVIF are told apart by the brands of their `ftyp` box, a
    /// TIFF-based camera RAW from a TIFF by its first directory (`dr_sniff`: the first
    /// ``ImageInput/headLength`` bytes decide).
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        let format = bytes.withUnsafeBufferPointer { dr_sniff($0.baseAddress, $0.count) }
        return ImageFormat(cFormat: format)
    }

    init?(cFormat: Int32) {
        switch UInt32(cFormat) {
        case DR_FORMAT_PNG.rawValue: self = .png
        case DR_FORMAT_JPEG.rawValue: self = .jpeg
        case DR_FORMAT_TIFF.rawValue: self = .tiff
        case DR_FORMAT_WEBP.rawValue: self = .webp
        case DR_FORMAT_GIF.rawValue: self = .gif
        case DR_FORMAT_HEIF.rawValue: self = .heif
        case DR_FORMAT_AVIF.rawValue: self = .avif
        case DR_FORMAT_JXL.rawValue: self = .jxl
        case DR_FORMAT_RAW.rawValue: self = .raw
        case DR_FORMAT_PDF.rawValue: self = .pdf
        case DR_FORMAT_SVG.rawValue: self = .svg
        default: return nil
        }
    }

    /// The file extensions that name it, the usual one first ("jpg", "jpeg", "jpe").
    public var fileExtensions: [String] {
        switch self {
        case .png: ["png"]
        case .jpeg: ["jpg", "jpeg", "jpe"]
        case .tiff: ["tif", "tiff"]
        case .webp: ["webp"]
        case .gif: ["gif"]
        case .heif: ["heic", "heif", "hif"]
        case .avif: ["avif"]
        case .jxl: ["jxl"]
        case .raw: ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2"]
        case .pdf: ["pdf"]
        case .svg: ["svg", "svgz"]
        }
    }

    /// The format a file extension names ("png", "jpg", "tif", "heic", …; any case, with or
    /// without the dot).
    public static func fromExtension(_ ext: String) -> ImageFormat? {
        var lowered = ext.lowercased()
        if lowered.hasPrefix(".") { lowered.removeFirst() }
        return allCases.first { $0.fileExtensions.contains(lowered) }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String { fileExtensions[0] }

    /// The formats darkroom writes, in the order the help names them.
    public static let writableFormats: [ImageFormat] = [.jpeg, .png, .webp, .gif, .avif, .jxl, .tiff]

    /// The words that name a format darkroom writes, as `format:` and `--format` take them:
    /// each format's name and its file extensions ("jpeg", "jpg", "jpe", "png", …).
    public static var writableWords: [String] {
        var words = [String]()
        for format in writableFormats {
            for word in [format.rawValue] + format.fileExtensions where !words.contains(word) { words.append(word) }
        }
        return words
    }

    /// "jpeg, png, webp, gif, avif, jxl or tiff"
    public static var writableList: String {
        let names = writableFormats.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The format darkroom writes for a file extension ("jpg", "tif", …), or nil (HEIF, camera
    /// RAW, PDF and SVG are read only).
    public static func writable(fileExtension ext: String) -> ImageFormat? {
        fromExtension(ext).flatMap { $0.isWritable ? $0 : nil }
    }

    /// Whether darkroom can write it (HEIF, camera RAW, PDF and SVG are read only).
    public var isWritable: Bool { self != .heif && self != .raw && !isVector }

    /// Whether it is drawn rather than stored as pixels: a PDF page or an SVG, rendered at a DPI
    /// or at the size a following resize asks for.
    public var isVector: Bool { self == .pdf || self == .svg }

    /// Whether a file can hold one colour channel (WebP and AVIF as darkroom writes them are RGB).
    public var holdsGrey: Bool { self == .png || self == .jpeg || self == .tiff }

    /// Whether a file can hold an animation, which darkroom reads and writes frame by frame.
    public var canAnimate: Bool { self == .gif || self == .webp }

    /// Whether the format carries EXIF and XMP (GIF has no block darkroom writes them into).
    public var holdsMetadata: Bool { self != .gif }
}
