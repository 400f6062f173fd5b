import CDarkroomCodecs
import DarkroomCore

/// An encoder that takes rows in order: the sink of a ``Pipeline``. PNG, JPEG and TIFF encode
/// rows as they come; WebP, AVIF and JPEG XL keep them (their libraries encode a whole image) and encode
/// at ``finish()``; GIF keeps a frame's rows and encodes each frame as it ends. An animation is
/// the rows of each frame in turn, each ended by ``endFrame(delay:)``.
///
/// Strips are quantised to bytes on the threads that rendered them (a PNG's are also filtered
/// and deflated there, see ``PNGStrips``); only the codec library runs on the writing thread. The encoded file goes into `options.destination` as it is made
/// (JPEG, PNG, TIFF: the caller's temporary file, placed only once the render succeeded), or
/// exists only in memory until ``finish()`` returns it whole; either way a failed render
/// leaves nothing behind.
public struct ImageEncoder: StripSink {
    /// Turns float strips into the encoder's bytes: unpremultiplied or flattened on white,
    /// clamped and rounded once.
    public struct Quantiser: StripQuantiser {
        let layout: PixelConversion.Layout
        /// PNG (not a palette candidate): strips are deflated here, on the render threads.
        var png: PNGStrips?
        /// Striped deflate TIFF: likewise.
        var tiff: TIFFStrips?

        public func prepare(_ rows: RegionView) -> EncodedStrip {
            let r = rows.rect, rowBytes = r.width * layout.bytesPerPixel
            let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * r.height) { buffer, initialized in
                for y in r.y..<r.maxY {
                    PixelConversion.bytes(from: rows.pointer(r.x, y), count: r.width, layout: layout,
                                          into: buffer.baseAddress! + (y - r.y) * rowBytes)
                }
                initialized = rowBytes * r.height
            }
            return encoded(bytes, rows: r.y..<r.maxY)
        }

        /// The strip as the writer takes it: its rows, or a PNG segment made of them.
        func encoded(_ bytes: [UInt8], rows: Range<Int>) -> EncodedStrip {
            png?.segment(bytes, rows: rows) ?? tiff?.strips(bytes, rows: rows) ?? EncodedStrip(bytes: bytes)
        }

        /// 8-bit RGB samples, flattened or not (an opaque pixel is itself over white), are the
        /// rows as they come.
        public var takesRGB8Rows: Bool { layout == .rgb || layout == .rgbOverWhite }

        public func prepare(rgb8 rows: RGB8RegionView) -> EncodedStrip {
            let r = rows.rect, rowBytes = 3 * r.width
            let bytes = [UInt8](unsafeUninitializedCapacity: rowBytes * r.height) { buffer, initialized in
                for y in r.y..<r.maxY {
                    (buffer.baseAddress! + (y - r.y) * rowBytes).update(from: rows.pointer(r.x, y), count: rowBytes)
                }
                initialized = rowBytes * r.height
            }
            return encoded(bytes, rows: r.y..<r.maxY)
        }
    }

    public let quantiser: Quantiser
    public let size: Size
    /// What could not be carried of `options.metadata` (an unreadable EXIF block, say).
    public let metadataWarnings: [String]
    /// Whether the file goes into `options.destination` as it is made (a JPEG, PNG or TIFF with one).
    public let writesToDestination: Bool
    private let writer: WriterHandle

    /// Palette outputs are tried only up to this many pixels: the encoder keeps their rows
    /// (4 bytes a pixel, and 1 for the indices) until it knows whether the colours fit.
    public static let maxPalettePixels = 16 << 20

    /// The bytes the encoder itself holds beyond a strip: the kept rows of a palette candidate,
    /// libjpeg's whole-image coefficient buffer (2 bytes a sample) for a progressive or
    /// Huffman-optimised JPEG, the whole picture of a WebP or AVIF with its encoder's working
    /// copies, a row of tiles of a tiled TIFF.
    public static func heldBytes(size: Size, options: EncodeOptions, traits: OutputTraits) -> Int {
        switch options.format {
        case .webp where options.animated:
            // Two ARGB pictures (one filled while the other is encoded); WebPAnimEncoder's
            // previous and current canvases and the candidate sub-frames it encodes.
            return size.area * 28
        case .gif:
            // The frame's RGBA and palette indices; an animation's second frame (filled while
            // the other is encoded) and frame before (RGBA); cgif's queue of three frames'
            // indices; libimagequant's float copy of the frame (16 bytes a pixel) and its noise
            // and edge maps.
            return size.area * (4 + 1 + (options.animated ? 8 : 0) + 3 + 18)
        case .webp:
            // Lossy: the YUV(A) picture the rows are converted into (1.5, 2.5 with alpha) and
            // the encoder's per-macroblock state; lossless: the ARGB picture (4 a pixel) and
            // libwebp's transform buffers (about 2× ARGB).
            return size.area * (options.lossless ? 12 : 3)
        case .avif:
            // The RGB(A) plane, libheif's YUV 4:2:0 or 4:4:4 copy and libaom's frame buffers
            // (source, reconstruction and lookahead, 1.5–3 bytes a pixel each). 10-bit: every
            // sample takes 2 bytes (the 16-bit rows, libavif's YUVA planes, libaom's buffers).
            let samples = traits.alpha ? 4 : 3
            return options.avifIsTenBit ? size.area * 2 * (samples + 4 + 12) : size.area * (samples + 12)
        case .jxl:
            // libjxl 0.7 takes a frame whole: the kept rows, then its own float copy and the
            // encoder's working images (XYB planes, coefficients, quantisation fields): about 50
            // bytes a pixel at effort 7, about 76 lossless (modular); a JPEG transcoded, its
            // coefficients and their recoding, about 31 (measured as cjxl's and darkroom's
            // peak resident memory over their baseline, 3 and 12 MP photos).
            if options.losslessJPEG { return size.area * 34 }
            return size.area * (jxlLayout(options, traits).bytesPerPixel + (options.jxlLossless ? 84 : 52))
        case .tiff:
            guard options.tiled else { return 0 }
            return 2 * 256 * size.width * tiffLayout(options, traits).bytesPerPixel

        case .png:
            return triesPalette(size: size, options: options, traits: traits) ? size.area * ((traits.alpha ? 4 : 3) + 1) : 0
        case .jpeg:
            guard options.progressive || options.optimizesCoding(for: size) else { return 0 }
            // 2 bytes a sample: 1 sample a pixel for grey, 3 at 4:4:4, 1.5 at 4:2:0.
            return size.area * (traits.grey ? 2 : options.usesFullChroma ? 6 : 3)
        default:
            return 0  // read only: never written
        }
    }

    /// A PNG from a palette source, 8-bit and in colour, small enough to keep its rows.
    static func triesPalette(size: Size, options: EncodeOptions, traits: OutputTraits) -> Bool {
        options.format == .png && traits.paletteSource && !traits.grey && !pngIsSixteenBit(options, traits)
            && size.area <= maxPalettePixels
    }

    /// A PNG's depth: as asked, else as the source (16 for a 16-bit PNG, 8 otherwise).
    static func pngIsSixteenBit(_ options: EncodeOptions, _ traits: OutputTraits) -> Bool {
        (options.bitDepth ?? (traits.sixteenBitSource ? 16 : 8)) == 16
    }

    /// A JPEG XL's layout: RGB(A), 16-bit as asked or as the source.
    static func jxlLayout(_ options: EncodeOptions, _ traits: OutputTraits) -> PixelConversion.Layout {
        PixelConversion.Layout(grey: false, alpha: traits.alpha, sixteenBit: pngIsSixteenBit(options, traits))
    }

    /// A TIFF's layout: grey and alpha as the output holds them, 16-bit as asked or as the
    /// source (never with JPEG compression, which holds 8-bit samples).
    static func tiffLayout(_ options: EncodeOptions, _ traits: OutputTraits) -> PixelConversion.Layout {
        let sixteenBit = options.tiffCompression != .jpeg && pngIsSixteenBit(options, traits)
        return PixelConversion.Layout(grey: traits.grey, alpha: traits.alpha, sixteenBit: sixteenBit)
    }

    /// - Parameter traits: what the output holds: PNG keeps alpha, grey (one channel), and a
    ///   16-bit or palette source's layout; JPEG is grey (one component) or YCbCr.
    public init(size: Size, options: EncodeOptions, traits: OutputTraits) throws(CodecError) {
        guard size.width > 0, size.height > 0 else {
            throw CodecError(code: .encodeFailed, message: "cannot encode an empty (\(size)) image")
        }
        self.size = size
        writesToDestination = options.writesToDestination
        let (metadata, warnings) = options.metadata?.prepared(for: options.metadataPolicy, size: size, format: options.format,
                                                              orientationApplied: options.orientationApplied,
                                                              convertedToSRGB: options.convertedToSRGB) ?? (ImageMetadata(), [])
        metadataWarnings = warnings
        // Encoders' threads (libjxl's stage helpers, an animation's frame worker) come from the
        // compute slots.
        DecoderThreads.registered
        let opened = try Self.openWriter(size: size, options: options, traits: traits, metadata: metadata)
        quantiser = opened.quantiser
        writer = WriterHandle(opened.pointer)
        // GIF has no place for a profile; its colours are sRGB by convention.
        if let icc = options.icc, !icc.isEmpty, options.format != .gif {
            let handle = writer.pointer
            do throws(CodecError) {
                try icc.withUnsafeBufferPointer { (profile) throws(CodecError) in
                    try CBridge.call { dr_writer_set_icc(handle, profile.baseAddress, profile.count, $0, $1) }
                }
            } catch where error.code == .unsupported {
                warning = "ICC profile not embedded: \(error.message)"
            }
        }
    }

    /// A problem that did not stop the encoding (a profile the format refused), if any.
    public private(set) var warning: String?

    public mutating func write(_ strip: EncodedStrip, rows: Range<Int>) throws {
        let handle = writer.pointer
        if var segment = strip.segment {
            try strip.bytes.withUnsafeBufferPointer { bytes in
                try CBridge.call { dr_png_write_segment(handle, &segment, bytes.baseAddress, $0, $1) }
            }
        } else if let lengths = strip.tiffStrips {
            try strip.bytes.withUnsafeBufferPointer { bytes in
                try CBridge.call { dr_tiff_write_deflated(handle, Int32(rows.lowerBound), Int32(rows.count), bytes.baseAddress, lengths, $0, $1) }
            }
        } else {
            try write(strip.bytes, rows: rows)
        }
    }

    /// Takes the rows `rows` as the quantiser makes them (8- or 16-bit samples, the layout's channels).
    public mutating func write(_ strip: [UInt8], rows: Range<Int>) throws {
        let rowBytes = size.width * quantiser.layout.bytesPerPixel, handle = writer.pointer
        try strip.withUnsafeBufferPointer { bytes in
            try CBridge.call { dr_writer_write_rows(handle, bytes.baseAddress, rowBytes, Int32(rows.count), $0, $1) }
        }
    }

    /// Ends a frame of an animation (``EncodeOptions/animated``): the rows written since the last
    /// frame are shown for `delay` milliseconds, and the next rows start the next frame.
    public func endFrame(delay: Int) throws(CodecError) {
        let handle = writer.pointer
        try CBridge.call { dr_writer_end_frame(handle, Int32(clamping: max(delay, 0)), $0, $1) }
    }

    /// Ends the file after the last row and returns its bytes. The writer's copy is freed as
    /// it is copied (a TIFF's a megabyte at a time), so a large output is not held twice.
    /// An encoder that wrote into `options.destination` returns no bytes (see ``finishFile()``).
    public func finish() throws(CodecError) -> [UInt8] {
        var length = 0
        let handle = writer.pointer
        try CBridge.call { dr_writer_end(handle, &length, $0, $1) }
        if writesToDestination { return [] }
        return [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            if let base = buffer.baseAddress { dr_writer_take(handle, base) }
            initialized = length
        }
    }

    /// Ends a file written into `options.destination` and returns its length in bytes.
    public func finishFile() throws(CodecError) -> Int {
        precondition(writesToDestination, "only an encoder with a destination writes into a file")
        var length = 0
        let handle = writer.pointer
        try CBridge.call { dr_writer_end(handle, &length, $0, $1) }
        return length
    }
}

/// Closes the C writer when the last copy of the encoder goes.
private final class WriterHandle {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { dr_writer_close(pointer) }
}
