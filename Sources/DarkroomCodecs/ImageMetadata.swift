import CDarkroomCodecs

/// The metadata blocks of an image file, as stored: EXIF (a TIFF stream), XMP (an XML packet)
/// and IPTC (IIM records). Read from JPEG APP1/APP13 and PNG eXIf, iTXt `XML:com.adobe.xmp` and
/// ImageMagick's `Raw profile type exif|iptc|xmp` text chunks; written back by ``ImageEncoder``.
/// The ICC profile is not among them: colour management owns it.
public struct ImageMetadata: Sendable, Equatable {
    public var exif: [UInt8]?
    public var xmp: [UInt8]?
    public var iptc: [UInt8]?

    public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iptc: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    public var isEmpty: Bool { exif == nil && xmp == nil && iptc == nil }

    /// The blocks of the PNG or JPEG file `bytes` (header chunks and markers only; no pixel is
    /// decoded). A file that cannot be read has none: decoding reports that, not this.
    /// (``ImageCodec/readHeader(_:)`` gives them with the header, in the same pass.)
    public static func read(from bytes: [UInt8]) -> ImageMetadata {
        (try? ImageCodec.readHeader(bytes).metadata) ?? ImageMetadata()
    }

    /// Copies the blocks a reader handed out (the caller still frees them).
    init(copying blocks: dr_metadata) {
        func copy(_ data: UnsafeMutablePointer<UInt8>?, _ length: Int) -> [UInt8]? {
            guard let data, length > 0 else { return nil }
            return Array(UnsafeBufferPointer(start: data, count: length))
        }
        self.init(exif: copy(blocks.exif, blocks.exif_length), xmp: copy(blocks.xmp, blocks.xmp_length),
                  iptc: copy(blocks.iptc, blocks.iptc_length))
    }

    /// Runs `body` with the C view of the blocks (valid only during the call).
    func withCBlocks<T>(_ body: (UnsafePointer<dr_metadata>) throws(CodecError) -> T) throws(CodecError) -> T {
        var exif = self.exif ?? [], xmp = self.xmp ?? [], iptc = self.iptc ?? []
        let result: Result<T, CodecError> = exif.withUnsafeMutableBufferPointer { e in
            xmp.withUnsafeMutableBufferPointer { x in
                iptc.withUnsafeMutableBufferPointer { i in
                    var blocks = dr_metadata(exif: e.baseAddress, exif_length: e.count, xmp: x.baseAddress, xmp_length: x.count,
                                             iptc: i.baseAddress, iptc_length: i.count)
                    do throws(CodecError) { return .success(try body(&blocks)) } catch { return .failure(error) }
                }
            }
        }
        return try result.get()
    }
}

extension ImageMetadata {
    /// The EXIF text field `name` (`Artist`, `Copyright`, `DateTimeOriginal`) as stored, or nil
    /// when there is no EXIF block, no such entry or it is empty. Trailing spaces and NULs (some
    /// cameras pad fixed-size fields) are dropped.
    public func exifText(_ name: String) -> String? {
        let tags = ["Artist": 0x013B, "Copyright": 0x8298, "DateTimeOriginal": 0x9003]
        guard let exif, let tag = tags[name] else { return nil }
        var out = [CChar](repeating: 0, count: 1024)
        let found = exif.withUnsafeBufferPointer { dr_exif_text($0.baseAddress, $0.count, Int32(tag), &out, out.count) }
        guard found != 0 else { return nil }
        let text = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let trimmed = String(text.reversed().drop { $0 == " " }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }
}
