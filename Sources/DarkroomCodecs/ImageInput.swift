import CDarkroomCodecs

/// An input's content as the decoders read it: its bytes in memory, or, for a TIFF, a JPEG or a
/// camera RAW, the open file itself, read in place (`pread`: a TIFF strip by strip or a row of tiles at a
/// time as the pipeline asks for rows, a JPEG 64 KB at a time as libjpeg asks), so a scan of
/// hundreds of megabytes, or a photograph's 10–20 MB, is never held whole. The decoders of the
/// other formats (PNG, WebP, HEIF/AVIF, GIF) read from memory; libraw reads a RAW through
/// /proc/self/fd, the same open file.
///
/// A PDF or SVG is parsed once, by the first read of its header, and the document kept for
/// every later read of this input and its copies (``DocumentShelf``).
///
/// The descriptor belongs to the caller, who keeps it open while any decoder of this input
/// lives, and is answerable for the content not changing meanwhile (the daemon's read lease
/// and its stamp check, see docs/formats-and-colour.md).
public struct ImageInput: Sendable {
    public enum Storage: Sendable {
        case memory([UInt8])
        /// An open regular file of `size` bytes; `head` is its first bytes.
        case file(descriptor: Int32, size: Int, head: [UInt8])
    }

    public let storage: Storage
    /// A PDF's or SVG's parsed document, kept from the header read for the decoders (nil for
    /// the other formats and for a file read in place).
    let documents: DocumentShelf?

    /// How many bytes of a file's start tell its format (and whether it is read in place): a
    /// TIFF-based camera RAW is told from a TIFF by its first directory, and an SVG's root may
    /// follow an XML declaration, comments and a doctype (Illustrator's run to a few hundred bytes).
    public static let headLength = Int(DR_SNIFF_LENGTH)

    public init(_ bytes: [UInt8]) {
        storage = .memory(bytes)
        documents = ImageFormat.detect(bytes)?.isVector == true ? DocumentShelf() : nil
    }

    /// A file read in place; only a TIFF, a JPEG or a camera RAW can be (``readsInPlace(head:)``).
    public init(descriptor: Int32, size: Int, head: [UInt8]) {
        storage = .file(descriptor: descriptor, size: size, head: Array(head.prefix(Self.headLength)))
        documents = nil
    }

    /// Whether a file starting with `head` is read in place rather than into memory: a TIFF, a
    /// JPEG or a camera RAW (libraw reads it through the descriptor, beside its own images).
    public static func readsInPlace(head: [UInt8]) -> Bool {
        let format = ImageFormat.detect(head)
        return format == .tiff || format == .jpeg || format == .raw
    }

    /// Whether a file starting with `head` may be ``DecodeLimits/inPlaceFactor`` times
    /// `maxFileBytes`: a TIFF read in place (a JPEG, read in place too, keeps the plain limit).
    public static func takesInPlaceLimit(head: [UInt8]) -> Bool { ImageFormat.detect(head) == .tiff }

    /// The content's size in bytes.
    public var count: Int {
        switch storage {
        case .memory(let bytes): bytes.count
        case .file(_, let size, _): size
        }
    }

    /// The first bytes, which the format is detected from.
    public var head: [UInt8] {
        switch storage {
        case .memory(let bytes): Array(bytes.prefix(Self.headLength))
        case .file(_, _, let head): head
        }
    }

    public var format: ImageFormat? { ImageFormat.detect(head) }

    /// Whether the content is read from the file rather than from memory.
    public var isInPlace: Bool {
        if case .file = storage { return true }
        return false
    }

    /// Runs `body` with the bytes in memory, or with no bytes (nil) for a file read in place.
    func withBytes<T, E: Error>(_ body: (UnsafePointer<UInt8>?, Int) throws(E) -> T) throws(E) -> T {
        switch storage {
        case .memory(let bytes): try bytes.withUnsafeBufferPointer { (buffer) throws(E) in try body(buffer.baseAddress, buffer.count) }
        case .file(_, let size, _): try body(nil, size)
        }
    }
}
