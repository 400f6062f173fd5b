import CDarkroomCodecs
import DarkroomCore

/// Reads and writes PNG and JPEG, converting to and from the core's premultiplied float `Image`.
///
/// Decoding applies no colour management: samples are taken as sRGB-encoded values, and an ICC
/// profile is only reported. 16-bit PNG keeps its precision in the float image.
public enum ImageCodec {
    /// Header only; checks nothing against limits.
    public static func readInfo(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        try requireContent(bytes)
        let (_, info) = try CBridge.withInfo { (info: inout dr_info) throws(CodecError) in
            try bytes.withUnsafeBufferPointer { (input) throws(CodecError) in
                try CBridge.call { dr_read_info(input.baseAddress, input.count, &info, $0, $1) }
            }
        }
        return info
    }

    /// Checks `bytes.count` against `maxFileBytes` and width×height (as declared in the header)
    /// against `maxPixels` before decoding pixels.
    /// - Parameter jpegShrink: 1, 2, 4 or 8 — JPEG shrink-on-load (ignored for PNG). Other values
    ///   are rounded down to the nearest of these.
    public static func decode(
        _ bytes: [UInt8], limits: DecodeLimits = .init(), jpegShrink: Int = 1
    ) throws(CodecError) -> (image: Image, info: ImageInfo) {
        guard bytes.count <= limits.maxFileBytes else {
            throw CodecError(code: .tooLarge, message: "file is \(bytes.count) bytes, over the limit of \(limits.maxFileBytes) bytes")
        }
        try requireContent(bytes)
        let shrink = [8, 4, 2].first { $0 <= jpegShrink } ?? 1
        var pixels = dr_pixels()
        let (_, info) = try CBridge.withInfo { (info: inout dr_info) throws(CodecError) in
            try bytes.withUnsafeBufferPointer { (input) throws(CodecError) in
                try CBridge.call {
                    dr_decode(input.baseAddress, input.count, Int32(shrink), UInt64(max(limits.maxPixels, 0)),
                              &info, &pixels, $0, $1)
                }
            }
        }
        defer { dr_pixels_free(&pixels) }
        guard let data = pixels.data else { throw CodecError(code: .corrupt, message: "decoder returned no pixels") }
        let width = Int(pixels.width), height = Int(pixels.height)
        let image = pixels.bytes_per_sample == 2
            ? PixelConversion.image(from: data.assumingMemoryBound(to: UInt16.self), width: width, height: height)
            : PixelConversion.image(from: data.assumingMemoryBound(to: UInt8.self), width: width, height: height)
        return (image, info)
    }

    /// Stats the file first (file size limit before reading), then reads and decodes.
    public static func decodeFile(
        atPath path: String, limits: DecodeLimits = .init(), jpegShrink: Int = 1
    ) throws(CodecError) -> (image: Image, info: ImageInfo, bytes: [UInt8]) {
        let bytes = try FileReader.contents(atPath: path, maxBytes: limits.maxFileBytes)
        let (image, info) = try decode(bytes, limits: limits, jpegShrink: jpegShrink)
        return (image, info, bytes)
    }

    /// Encodes 8-bit PNG (RGB when every pixel is opaque, RGBA otherwise; zlib level 6) or
    /// JPEG (4:2:0; transparent pixels are composited over white, since JPEG has no alpha).
    /// Colour is unpremultiplied, clamped to 0…1 and rounded to nearest, once.
    public static func encode(_ image: Image, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw CodecError(code: .encodeFailed, message: "cannot encode an empty (\(image.width)×\(image.height)) image")
        }
        guard image.width <= 65_500 || options.format == .png, image.height <= 65_500 || options.format == .png else {
            throw CodecError(code: .encodeFailed, message: "JPEG cannot hold an image wider or taller than 65500 pixels")
        }
        var output = dr_buffer()
        let width = Int32(image.width), height = Int32(image.height)
        switch options.format {
        case .png:
            let rgba = PixelConversion.rgba8(from: image, alpha: .keep)
            let keepAlpha: Int32 = PixelConversion.isOpaque(rgba) ? 0 : 1
            try rgba.withUnsafeBufferPointer { (input) throws(CodecError) in
                try CBridge.call { dr_encode_png(input.baseAddress, width, height, keepAlpha, &output, $0, $1) }
            }
        case .jpeg:
            let rgba = PixelConversion.rgba8(from: image, alpha: .flattenOnWhite)
            let quality = Int32(min(max(options.quality, 1), 100))
            let progressive: Int32 = options.progressive ? 1 : 0
            try rgba.withUnsafeBufferPointer { (input) throws(CodecError) in
                try CBridge.call {
                    dr_encode_jpeg(input.baseAddress, width, height, quality, progressive, &output, $0, $1)
                }
            }
        }
        defer { dr_buffer_free(&output) }
        guard let data = output.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: output.length))
    }

    /// Empty input gets a clearer message than "unrecognised signature".
    private static func requireContent(_ bytes: [UInt8]) throws(CodecError) {
        guard !bytes.isEmpty else { throw CodecError(code: .notAnImage, message: "the file is empty") }
    }
}
