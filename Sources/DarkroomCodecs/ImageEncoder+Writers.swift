import CDarkroomCodecs
import DarkroomCore

/// Opening each format's C writer: what it takes of ``EncodeOptions``, and the layout of the
/// bytes its rows come in (the ``ImageEncoder/Quantiser`` that makes them).
extension ImageEncoder {
    /// An open C writer and the quantiser that feeds it.
    struct OpenWriter {
        let pointer: OpaquePointer
        let quantiser: Quantiser
    }

    /// What every C writer is opened with, in its C types: the image's size, where the bytes go
    /// (the destination descriptor, or memory) and the EXIF orientation to record.
    private struct Target {
        let w: Int32, h: Int32, toFile: Int32, fd: Int32, orientation: Int32

        init(size: Size, options: EncodeOptions, metadata: ImageMetadata) {
            (w, h) = (Int32(clamping: size.width), Int32(clamping: size.height))
            toFile = options.writesToDestination ? 1 : 0
            fd = options.destination ?? -1
            orientation = Int32(metadata.exif.map(ExifOrientation.parse) ?? 1)
        }
    }

    /// The C writer of `options.format` for an image of `size`, with `metadata` prepared for it.
    static func openWriter(size: Size, options: EncodeOptions, traits: OutputTraits,
                           metadata: ImageMetadata) throws(CodecError) -> OpenWriter {
        let target = Target(size: size, options: options, metadata: metadata)
        let (w, h, toFile, fd, orientation) = (target.w, target.h, target.toFile, target.fd, target.orientation)
        switch options.format {
        case .png:
            return try openPNG(size: size, target: target, options: options, traits: traits, metadata: metadata)
        case .jpeg:
            guard size.width <= 65_500, size.height <= 65_500 else {
                throw CodecError(code: .encodeFailed, message: "JPEG cannot hold an image wider or taller than 65500 pixels")
            }
            let layout = PixelConversion.Layout(grey: traits.grey, alpha: false, overWhite: true)
            var c = dr_jpeg_write_options(quality: options.clamped(.quality), progressive: options.progressive ? 1 : 0,
                                          chroma_444: options.usesFullChroma ? 1 : 0,
                                          optimize: options.optimizesCoding(for: size) ? 1 : 0,
                                          channels: Int32(layout.channels), to_file: toFile, fd: fd)
            return try open(Quantiser(layout: layout), metadata) { dr_jpeg_writer_open(w, h, &c, $0, $1, $2, $3) }
        case .webp:
            let layout = PixelConversion.Layout(grey: false, alpha: traits.alpha)
            var c = dr_webp_write_options(channels: Int32(layout.channels), quality: Float(options.clamped(.quality)),
                                          lossless: options.lossless ? 1 : 0, effort: options.clamped(.effort),
                                          animated: options.animated ? 1 : 0, loop_count: Int32(clamping: max(options.loopCount, 0)))
            return try open(Quantiser(layout: layout), metadata) { dr_webp_writer_open(w, h, &c, $0, $1, $2, $3) }
        case .gif:
            // GIF carries no metadata blocks.
            let layout = PixelConversion.Layout(grey: false, alpha: traits.alpha)
            var c = dr_gif_write_options(channels: Int32(layout.channels), colors: options.clamped(.colors),
                                         dither: Float(min(max(options.dither, 0), 1)),
                                         effort: Int32(min(max(options.paletteEffort, 1), 10)),
                                         loop_count: Int32(clamping: max(options.loopCount, 0)), to_file: toFile, fd: fd)
            return try open(Quantiser(layout: layout), nil) { _, pointer, message, capacity in
                dr_gif_writer_open(w, h, &c, pointer, message, capacity)
            }
        case .avif:
            let layout = PixelConversion.Layout(grey: false, alpha: traits.alpha, sixteenBit: options.avifIsTenBit)
            var c = dr_avif_write_options(channels: Int32(layout.channels), quality: options.clamped(.quality),
                                          speed: options.clamped(.speed), bit_depth: Int32(clamping: options.bitDepth ?? 8),
                                          orientation: orientation)
            return try open(Quantiser(layout: layout), metadata) { dr_avif_writer_open(w, h, &c, $0, $1, $2, $3) }
        case .jxl:
            let layout = jxlLayout(options, traits)
            var c = dr_jxl_write_options(channels: Int32(layout.channels), bit_depth: layout.sixteenBit ? 16 : 8,
                                         distance: Float(options.jxlDistance), effort: Int32(options.jxlEffort),
                                         lossless: options.jxlLossless ? 1 : 0, orientation: orientation)
            return try open(Quantiser(layout: layout), metadata) { dr_jxl_writer_open(w, h, &c, $0, $1, $2, $3) }
        case .tiff:
            return try openTIFF(size: size, target: target, options: options, traits: traits, metadata: metadata)
        default:
            // A format read only (ImageFormat.isWritable); the config and `process` refuse it before.
            throw CodecError(code: .unsupported, message: "darkroom reads \(options.format.displayName) but does not write it; write "
                             + ImageFormat.writableList)
        }
    }

    /// PNG: deflated on the render threads (``PNGStrips``) unless a palette may fit.
    private static func openPNG(size: Size, target: Target, options: EncodeOptions, traits: OutputTraits,
                                metadata: ImageMetadata) throws(CodecError) -> OpenWriter {
        let sixteenBit = pngIsSixteenBit(options, traits)
        let layout = PixelConversion.Layout(grey: traits.grey, alpha: traits.alpha, sixteenBit: sixteenBit)
        let palette = triesPalette(size: size, options: options, traits: traits)
        let level = min(max(options.compression, 0), 9), effort = min(max(options.pngEffort, 0), 2)
        var c = dr_png_write_options(channels: Int32(layout.channels), bit_depth: sixteenBit ? 16 : 8,
                                     compression: Int32(level), effort: Int32(effort), palette: palette ? 1 : 0,
                                     to_file: target.toFile, fd: target.fd)
        let png = palette ? nil : PNGStrips(size: size, layout: layout, level: level, effort: effort)
        return try open(Quantiser(layout: layout, png: png), metadata) { dr_png_writer_open(target.w, target.h, &c, $0, $1, $2, $3) }
    }

    /// TIFF: striped deflate is deflated on the render threads (``TIFFStrips``).
    private static func openTIFF(size: Size, target: Target, options: EncodeOptions, traits: OutputTraits,
                                 metadata: ImageMetadata) throws(CodecError) -> OpenWriter {
        let layout = tiffLayout(options, traits)
        let deflateStrips = options.tiffCompression == .deflate && !options.tiled
        var c = dr_tiff_write_options(channels: Int32(layout.channels), bit_depth: layout.sixteenBit ? 16 : 8,
                                      compression: tiffCompression(options.tiffCompression), quality: options.clamped(.quality),
                                      tiled: options.tiled ? 1 : 0, orientation: target.orientation, to_file: target.toFile, fd: target.fd)
        let quantiser = Quantiser(layout: layout, tiff: deflateStrips ? TIFFStrips(size: size, layout: layout) : nil)
        return try open(quantiser, metadata) { dr_tiff_writer_open(target.w, target.h, &c, $0, $1, $2, $3) }
    }

    /// Calls a C `…_writer_open` with the metadata blocks (nil: none), a place for the writer
    /// and the message buffer; throws its error.
    private static func open(
        _ quantiser: Quantiser, _ metadata: ImageMetadata?,
        _ body: (UnsafePointer<dr_metadata>?, UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<CChar>, Int) -> dr_status
    ) throws(CodecError) -> OpenWriter {
        var pointer: OpaquePointer?
        if let metadata {
            try metadata.withCBlocks { (blocks) throws(CodecError) in
                try CBridge.call { body(blocks, &pointer, $0, $1) }
            }
        } else {
            try CBridge.call { body(nil, &pointer, $0, $1) }
        }
        return OpenWriter(pointer: pointer!, quantiser: quantiser)
    }

    private static func tiffCompression(_ compression: EncodeOptions.TIFFCompression) -> Int32 {
        switch compression {
        case .none: Int32(DR_TIFF_NONE)
        case .lzw: Int32(DR_TIFF_LZW)
        case .deflate: Int32(DR_TIFF_DEFLATE)
        case .jpeg: Int32(DR_TIFF_JPEG)
        }
    }
}
