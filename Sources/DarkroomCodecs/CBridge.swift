import CDarkroomCodecs

/// Calls into the C shims: owns the message buffer and turns a `dr_status` into a `CodecError`.
enum CBridge {
    static let messageCapacity = 512
    /// EXIF blocks larger than this are cut; the orientation tag sits near the start of IFD0.
    static let exifCapacity = 65_536

    /// Runs `body` with a message buffer; throws when it returns anything but DR_OK.
    static func call(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> dr_status
    ) throws(CodecError) {
        var message = [CChar](repeating: 0, count: messageCapacity)
        let status = message.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard status != DR_OK else { return }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        throw error(for: status, message: text)
    }

    static func error(for status: dr_status, message: String) -> CodecError {
        let code: CodecError.Code
        switch status {
        case DR_NOT_AN_IMAGE: code = .notAnImage
        case DR_TRUNCATED: code = .truncated
        case DR_UNSUPPORTED: code = .unsupported
        case DR_TOO_LARGE: code = .tooLarge
        case DR_OUT_OF_MEMORY: code = .tooLarge
        case DR_ENCODE_FAILED: code = .encodeFailed
        case DR_CANCELLED: code = .timeout
        case DR_WRITE_FAILED: code = .writeFailed
        default: code = .corrupt
        }
        let text = !message.isEmpty ? message
            : status == DR_NOT_AN_IMAGE ? ImageFormat.unrecognisedMessage
            : status == DR_OUT_OF_MEMORY ? "out of memory" : "unreadable image data"
        return CodecError(code: code, message: text)
    }

    /// Runs `body` with a `dr_info` whose EXIF buffer is ready, then converts it to `ImageInfo`.
    static func withInfo<T>(
        _ body: (inout dr_info) throws(CodecError) -> T
    ) throws(CodecError) -> (T, ImageInfo) {
        var exif = [UInt8](repeating: 0, count: exifCapacity)
        var info = dr_info()
        let result: Result<T, CodecError> = exif.withUnsafeMutableBufferPointer { buffer in
            info.exif = buffer.baseAddress
            info.exif_capacity = buffer.count
            defer { info.exif = nil }
            do throws(CodecError) { return .success(try body(&info)) } catch { return .failure(error) }
        }
        defer { dr_info_free(&info) }
        let value = try result.get()
        let tiff = Array(exif.prefix(info.exif_length))
        let icc = info.icc.map { ICCProfile(Array(UnsafeBufferPointer(start: $0, count: info.icc_length))) }
        // TIFF's own Orientation tag, HEIF's decoder-applied irot/imir, or the EXIF tag.
        let orientation = info.oriented != 0 ? 1 : info.orientation != 0 ? Int(info.orientation) : ExifOrientation.parse(tiff)
        return (value, imageInfo(info, orientation: orientation, icc: icc))
    }

    static func imageInfo(_ info: dr_info, orientation: Int, icc: ICCProfile?) -> ImageInfo {
        let space: String
        switch dr_color_space(UInt32(info.color_space)) {
        case DR_SPACE_GRAY: space = "gray"
        case DR_SPACE_RGB: space = "rgb"
        case DR_SPACE_CMYK: space = "cmyk"
        case DR_SPACE_YCCK: space = "ycck"
        case DR_SPACE_PALETTE: space = "palette"
        default: space = "unknown"
        }
        var result = ImageInfo(
            format: ImageFormat(cFormat: info.format) ?? .jpeg,
            width: Int(info.width), height: Int(info.height),
            bitDepth: Int(info.bit_depth), channels: Int(info.channels),
            colorSpace: space, hasAlpha: info.has_alpha != 0, orientation: orientation,
            interlaced: info.interlaced != 0, hasICCProfile: info.has_icc != 0, icc: icc,
            warning: warningText(info))
        result.pages = max(Int(info.pages), 1)
        result.orientedByDecoder = info.oriented != 0
        if let sizes = info.page_sizes {
            result.pageSizes = (0..<result.pages).map { PageSize(width: sizes[2 * $0], height: sizes[2 * $0 + 1]) }
        }
        (result.rawPreviewWidth, result.rawPreviewHeight) = (Int(info.preview_width), Int(info.preview_height))
        return result
    }

    /// The decoder's forgiven problem, if any.
    private static func warningText(_ info: dr_info) -> String? {
        var copy = info.warning
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }
}
