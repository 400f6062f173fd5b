import CDarkroomCodecs
import DarkroomCore

/// How an ``ImageDecoder`` reads: limits, shrink-on-load, crop-on-load and a deadline.
public struct DecodeOptions: Sendable, Equatable {
    public var limits: DecodeLimits
    /// JPEG: decode at 1/2, 1/4 or 1/8 by DCT scaling (other values round down to one of
    /// these; PNG ignores it). Camera RAW: 2 or more is libraw's half-size decode.
    public var jpegShrink: Int
    /// The part of the (shrunk) image to deliver; nil for all of it.
    public var crop: Rect?
    /// Progressive JPEG: refuse more scans than this (libvips refuses a few hundred).
    public var maxScans: Int
    public var deadline: Deadline?
    /// Convert rows from the embedded ICC profile to sRGB with this intent; nil delivers samples
    /// as stored (a CMYK JPEG is then converted naively).
    public var convertToSRGB: ColorOptions.Intent?
    /// PDF and SVG: the page, its DPI and the size it is rendered at (other formats ignore it).
    public var vector: VectorPage = VectorPage()
    /// How a camera RAW is developed (other formats ignore it).
    public var raw: RawDecoding

    public init(limits: DecodeLimits = .init(), jpegShrink: Int = 1, crop: Rect? = nil, maxScans: Int = 500,
                deadline: Deadline? = nil, convertToSRGB: ColorOptions.Intent? = nil, raw: RawDecoding = RawDecoding()) {
        self.raw = raw
        self.limits = limits
        self.jpegShrink = jpegShrink
        self.crop = crop
        self.maxScans = maxScans
        self.deadline = deadline
        self.convertToSRGB = convertToSRGB
    }

    /// The shrink factor libjpeg will use: 1, 2, 4 or 8.
    public var effectiveShrink: Int { [8, 4, 2].first { $0 <= jpegShrink } ?? 1 }
}

/// An image file decoded row by row, top to bottom: the source of a ``Pipeline``.
///
/// The file's header is read and its pixel count checked when it is opened; rows are decoded
/// only as the pipeline asks for them, so a corrupt end is found when the pipeline reaches it
/// (and the render fails with this decoder's error, before anything is written).
/// Not thread-safe: the pipeline calls it from one thread at a time.
public final class ImageDecoder: CompactRowSource {
    /// What the header says (size as stored in the file, before shrink or crop).
    public let info: ImageInfo
    public let size: Size
    public let isOpaque: Bool
    public let isEightBit: Bool
    private let channels: Int
    private let bytesPerSample: Int
    private let reader: OpaquePointer
    /// The file's bytes (passed to the reader again at every call; no copy is made), or the
    /// file a TIFF is read from in place.
    private let input: ImageInput
    /// A PDF's or SVG's document taken off the input's shelf, which the reader draws from; put
    /// back once the reader is closed.
    private let borrowed: OpaquePointer?
    private var scratch: [UInt8] = []

    public convenience init(_ data: [UInt8], options: DecodeOptions = .init()) throws(CodecError) {
        try self.init(ImageInput(data), options: options)
    }

    public init(_ input: ImageInput, options: DecodeOptions = .init()) throws(CodecError) {
        DecoderThreads.registered
        let maxBytes = options.limits.maxBytes(inPlace: input.isInPlace && ImageInput.takesInPlaceLimit(head: input.head))
        guard input.count <= maxBytes else {
            throw CodecError(code: .tooLarge, message: "file is \(input.count) bytes, over the limit of \(maxBytes) bytes")
        }
        guard input.count > 0 else { throw CodecError(code: .notAnImage, message: "the file is empty") }
        var c = dr_read_options()
        c.shrink = Int32(options.effectiveShrink)
        if let crop = options.crop {
            (c.crop_x, c.crop_y, c.crop_width, c.crop_height) = (Int32(crop.x), Int32(crop.y), Int32(crop.width), Int32(crop.height))
        }
        c.max_pixels = UInt64(max(options.limits.maxPixels, 0))
        c.max_scans = Int32(clamping: options.maxScans)
        c.deadline_ns = options.deadline?.nanoseconds ?? 0
        options.raw.apply(to: &c)
        if let intent = options.convertToSRGB {
            c.convert_to_srgb = 1
            c.intent = Int32(intent == .relative ? DR_INTENT_RELATIVE : DR_INTENT_PERCEPTUAL)
        }
        c.page = Int32(clamping: options.vector.page)
        c.dpi = options.vector.dpi
        if let size = options.vector.renderSize {
            (c.render_width, c.render_height) = (Int32(clamping: size.width), Int32(clamping: size.height))
        }
        let borrowed = input.documents?.take()
        c.document = borrowed
        var reader: OpaquePointer?
        do throws(CodecError) {
            (_, info) = try CBridge.withInfo { (info: inout dr_info) throws(CodecError) in
                switch input.storage {
                case .memory(let data):
                    try data.withUnsafeBufferPointer { (input) throws(CodecError) in
                        try CBridge.call { dr_reader_open(input.baseAddress, input.count, &c, &info, &reader, $0, $1) }
                    }
                case .file(let fd, let size, _):
                    try CBridge.call { dr_reader_open_file(fd, UInt64(size), &c, &info, &reader, $0, $1) }
                }
            }
        } catch {
            if let borrowed { input.documents?.put(borrowed) }
            throw error
        }
        self.borrowed = borrowed
        self.input = input
        self.reader = reader!
        var w: Int32 = 0, h: Int32 = 0, ch: Int32 = 0, bps: Int32 = 0
        dr_reader_layout(reader, &w, &h, &ch, &bps)
        size = Size(width: Int(w), height: Int(h))
        channels = Int(ch)
        bytesPerSample = Int(bps)
        isOpaque = ch == 3
        isEightBit = bps == 1
    }

    deinit {
        dr_reader_close(reader)
        if let borrowed { input.documents?.put(borrowed) }
    }

    /// The bytes a decoder of `header` holds beyond the rows it hands out: libwebp's whole
    /// decoded image (WebP has no row output), libheif's decoded image and, while it decodes,
    /// its YUV planes; a GIF's canvas (and, animated, the copy a frame disposed "to previous"
    /// restores); libjxl's decoded JPEG XL frame. PNG, JPEG and TIFF stream (an interlaced PNG's and a progressive JPEG's
    /// own buffers aside, which the estimate has never counted). A camera RAW: libraw's raw
    /// samples (16 bits each), its working image (4 × 16 bits a pixel) and the developed RGB, all
    /// held at the peak; the last two a quarter of that for a half-size decode (`shrink` 2).
    public static func heldBytes(header: ImageInfo, shrink: Int = 1) -> Int {
        let area = header.width * header.height
        switch header.format {
        // An animation: WebPAnimDecoder's canvas and its copy of the previous one.
        case .webp: return header.pages > 1 ? area * 8 : area * (header.hasAlpha ? 4 : 3)
        case .heif, .avif:
            let sample = header.bitDepth > 8 ? 2 : 1
            return area * ((header.hasAlpha ? 4 : 3) * sample + 3 * sample)
        case .gif: return area * (header.pages > 1 ? 8 : 4)
        // The decoded frame as handed out, and libjxl's own planes and group buffers (about 8
        // bytes a pixel over the frame, measured on a 3 MP photo, lossy and lossless).
        case .jxl: return area * ((header.hasAlpha ? 4 : 3) * (header.bitDepth > 8 ? 2 : 1) + 12)
        // One band of the page in cairo's ARGB (vector.c), drawn at most at the page's DPI size.
        case .pdf, .svg:
            let rows = min(header.height, max(16, Int(DR_VECTOR_BAND_BYTES) / max(header.width * 4, 1)))
            return header.width * rows * 4
        case .raw:
            let developed = shrink >= 2 ? (header.width + 1) / 2 * ((header.height + 1) / 2) : area
            return area * 2 + developed * (8 + 3 * (header.bitDepth > 8 ? 2 : 1))
        case .png, .jpeg, .tiff: return 0
        }
    }

    /// Whether rows are converted from the embedded profile to sRGB (false: no profile, an
    /// sRGB one, an unusable one, or no conversion asked for).
    public var convertsColor: Bool { dr_reader_converts_color(reader) != 0 }

    /// A problem the decoder forgave while reading rows, if any.
    public var warning: String? {
        let text = String(cString: dr_reader_warning(reader))
        return text.isEmpty ? info.warning : text
    }

    public func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        let rowBytes = size.width * channels * bytesPerSample
        if scratch.count < rowBytes * count { scratch = [UInt8](repeating: 0, count: rowBytes * count) }
        let (reader, size, channels, bytesPerSample) = (self.reader, self.size, self.channels, self.bytesPerSample)
        try input.withBytes { (input, length) in
            try scratch.withUnsafeMutableBytes { raw in
                let rows = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                try CBridge.call {
                    dr_reader_read_rows(reader, input, length, rows, rowBytes, Int32(count), $0, $1)
                }
                for r in 0..<count {
                    PixelConversion.pixels(from: rows + r * rowBytes, channels: channels, bytesPerSample: bytesPerSample,
                                           count: size.width, into: target + r * stride)
                }
            }
        }
    }

    public func readRGB8Rows(count: Int, into target: UnsafeMutablePointer<UInt8>, rowBytes: Int) throws {
        precondition(channels == 3 && bytesPerSample == 1, "only an opaque 8-bit source has RGB8 rows")
        let reader = self.reader
        try input.withBytes { (input, length) in
            try CBridge.call {
                dr_reader_read_rows(reader, input, length, target, rowBytes, Int32(count), $0, $1)
            }
        }
    }
}
