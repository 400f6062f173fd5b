import CDarkroomCodecs

/// How a camera RAW input is developed for one output (``OutputOption/whiteBalance`` and
/// ``OutputOption/rawPreview`` as it sets them, and its bit depth): read-side settings, declared
/// as output options because every output decodes its input anew (``ChainRenderer``).
public struct RawDecoding: Sendable, Equatable {
    /// Which white balance libraw applies.
    public enum WhiteBalance: String, Sendable, Equatable, CaseIterable {
        /// As shot: the multipliers the camera recorded (daylight when it recorded none).
        case camera
        /// Grey world: averaged over the whole image.
        case auto
        /// The camera's daylight (D65) multipliers, whatever the light was.
        case daylight
    }

    public var whiteBalance: WhiteBalance = .camera
    /// The embedded JPEG preview instead of the raw data (fast; the camera's own rendering).
    public var preview: Bool = false
    /// Developed to 16 bits a sample (for an output that holds more than 8); 8 otherwise.
    public var sixteenBit: Bool = false

    public init(whiteBalance: WhiteBalance = .camera, preview: Bool = false, sixteenBit: Bool = false) {
        (self.whiteBalance, self.preview, self.sixteenBit) = (whiteBalance, preview, sixteenBit)
    }

    /// As an output sets it: its `white_balance` and `raw_preview`, and 16 bits when it asks for
    /// a bit depth above 8 (`bit_depth: 16`, 10-bit AVIF).
    public init(_ options: EncodeOptions) {
        self.init(whiteBalance: options.encoding.choice(.whiteBalance), preview: options.encoding.boolean(.rawPreview),
                  sixteenBit: (options.bitDepth ?? 8) > 8)
    }

    /// The C reader's fields.
    func apply(to c: inout dr_read_options) {
        let balance = switch whiteBalance {
        case .camera: DR_RAW_WB_CAMERA
        case .auto: DR_RAW_WB_AUTO
        case .daylight: DR_RAW_WB_DAYLIGHT
        }
        c.raw_white_balance = Int32(balance)
        c.raw_sixteen_bit = sixteenBit ? 1 : 0
        c.raw_preview = preview ? 1 : 0
    }

    /// A header as the decoder will deliver the input: a RAW read through its embedded preview
    /// is that JPEG (its size; its orientation the RAW's, which previews share); otherwise
    /// `header` as it is, 8- or 16-bit as developed.
    public func source(_ header: ImageInfo) -> ImageInfo {
        guard header.format == .raw else { return header }
        var source = header
        if preview, let size = header.rawPreviewSize {
            source.format = .jpeg
            (source.width, source.height, source.bitDepth) = (size.width, size.height, 8)
        } else {
            source.bitDepth = sixteenBit ? 16 : 8
        }
        return source
    }
}
