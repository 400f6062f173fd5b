import CDarkroomCodecs
import DarkroomCore

/// Whole-image reading and writing (PNG, JPEG, TIFF, WebP, HEIF/AVIF in; all but HEIF out), for callers that hold whole images (tests,
/// small tools). Jobs stream instead, through ``ImageDecoder``, a ``Pipeline`` and
/// ``ImageEncoder`` (see ``ChainRenderer``).
///
/// Decoding applies no colour management unless asked (`convertToSRGB`): samples are taken as
/// they are stored. 16-bit PNG keeps its precision in the float image.
public enum ImageCodec {
    /// Header only; checks nothing against limits.
    public static func readInfo(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        try readInfo(ImageInput(bytes), collecting: nil)
    }

    public static func readInfo(_ input: ImageInput) throws(CodecError) -> ImageInfo {
        try readInfo(input, collecting: nil)
    }

    /// The header and the metadata blocks (EXIF, XMP, IPTC) of a PNG or JPEG, in one pass over
    /// its header chunks or markers; no pixel is decoded.
    public static func readHeader(_ bytes: [UInt8]) throws(CodecError) -> (info: ImageInfo, metadata: ImageMetadata) {
        try readHeader(ImageInput(bytes))
    }

    public static func readHeader(_ input: ImageInput) throws(CodecError) -> (info: ImageInfo, metadata: ImageMetadata) {
        var blocks = dr_metadata()
        defer { dr_metadata_free(&blocks) }
        let info = try withUnsafeMutablePointer(to: &blocks) { (pointer) throws(CodecError) in
            try readInfo(input, collecting: pointer)
        }
        return (info, ImageMetadata(copying: blocks))
    }

    private static func readInfo(_ input: ImageInput, collecting metadata: UnsafeMutablePointer<dr_metadata>?)
        throws(CodecError) -> ImageInfo {
        guard input.count > 0 else { throw CodecError(code: .notAnImage, message: "the file is empty") }
        let (_, info) = try CBridge.withInfo { (info: inout dr_info) throws(CodecError) in
            info.metadata = metadata
            switch input.storage {
            case .memory(let bytes):
                try bytes.withUnsafeBufferPointer { (buffer) throws(CodecError) in
                    if let documents = input.documents {
                        try documents.readInfo(buffer, into: &info)
                    } else {
                        try CBridge.call { dr_read_info(buffer.baseAddress, buffer.count, &info, $0, $1) }
                    }
                }
            case .file(let fd, let size, _):
                try CBridge.call { dr_read_info_file(fd, UInt64(size), &info, $0, $1) }
            }
        }
        return info
    }

    /// Decodes the whole image. Checks `bytes.count` against `maxFileBytes` and width×height
    /// (as declared in the header) against `maxPixels` before decoding pixels.
    /// - Parameters:
    ///   - jpegShrink: 1, 2, 4 or 8 — JPEG shrink-on-load (ignored for PNG).
    ///   - convertToSRGB: convert from the embedded ICC profile to sRGB with this intent; nil
    ///     reads the samples as stored.
    public static func decode(
        _ bytes: [UInt8], limits: DecodeLimits = .init(), jpegShrink: Int = 1, convertToSRGB: ColorOptions.Intent? = nil
    ) throws(CodecError) -> (image: Image, info: ImageInfo) {
        try decode(ImageInput(bytes), limits: limits, jpegShrink: jpegShrink, convertToSRGB: convertToSRGB)
    }

    public static func decode(
        _ input: ImageInput, limits: DecodeLimits = .init(), jpegShrink: Int = 1, convertToSRGB: ColorOptions.Intent? = nil
    ) throws(CodecError) -> (image: Image, info: ImageInfo) {
        let decoder = try ImageDecoder(input, options: DecodeOptions(limits: limits, jpegShrink: jpegShrink,
                                                                     convertToSRGB: convertToSRGB))
        return (try image(from: decoder), decoder.info)
    }

    /// Every row of `decoder` (none read yet), as one image.
    public static func image(from decoder: ImageDecoder) throws(CodecError) -> Image {
        var failure: CodecError?
        let image = Image(width: decoder.size.width, height: decoder.size.height) { buffer in
            guard decoder.size.area > 0 else { return }
            do { try decoder.readRows(count: decoder.size.height, into: buffer.baseAddress!, stride: decoder.size.width) } catch {
                failure = error as? CodecError ?? CodecError(code: .corrupt, message: "\(error)")
                buffer.initialize(repeating: .zero)
            }
        }
        if let failure { throw failure }
        return image
    }

    /// Encodes PNG (RGB when every pixel is opaque, RGBA otherwise; 8-bit unless
    /// `options.bitDepth` says 16) or JPEG (transparent pixels composited over white, since JPEG
    /// has no alpha).
    /// Colour is unpremultiplied, clamped to 0…1 and rounded to nearest, once.
    public static func encode(_ image: Image, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        let pipeline = Pipeline(chain: CompiledChain(stages: []), source: Pipeline.traits(of: image))
        var encoder = try ImageEncoder(size: image.size, options: options, traits: OutputTraits(alpha: !image.isOpaque))
        do {
            _ = try pipeline.run(from: ImageSource(image), into: &encoder, executor: StripExecutor(bandHeight: 64))
        } catch let error as CodecError {
            throw error
        } catch {
            throw CodecError(code: .encodeFailed, message: "\(error)")
        }
        return try encoder.finish()
    }
}
