/// How a JPEG XL output is encoded, read from the output options (``OutputOption/quality``,
/// ``OutputOption/distance``, ``OutputOption/effort``, ``OutputOption/lossless``,
/// ``OutputOption/losslessJPEG``).
extension EncodeOptions {
    /// The butteraugli distance libjxl aims at: `distance` as written, else `quality` mapped as
    /// cjxl maps it. 0 means lossless.
    public var jxlDistance: Double {
        if let distance = encoding.value(.distance, for: .jxl)?.number { return distance }
        return Self.jxlDistance(quality: Int(clamped(.quality)))
    }

    /// cjxl's mapping of a quality to a distance (libjxl's later `JxlEncoderDistanceFromQuality`):
    /// 90 is distance 1 (cjxl's default, visually lossless), 100 is 0 (lossless), and below 30 the
    /// distance grows faster.
    public static func jxlDistance(quality: Int) -> Double {
        let q = Double(quality)
        if q >= 100 { return 0 }
        if q >= 30 { return 0.1 + (100 - q) * 0.09 }
        return 53.0 / 3000 * q * q - 23.0 / 20 * q + 25
    }

    /// Whether the JPEG XL is lossless: `lossless: true`, or distance 0 (quality 100).
    public var jxlLossless: Bool { lossless || jxlDistance == 0 }

    /// libjxl's effort, 1 (fastest) … 9 (smallest); 7 unless written.
    public var jxlEffort: Int { encoding.value(.effort, for: .jxl)?.integer ?? 7 }

    /// `lossless_jpeg: true` on a JPEG XL output: a JPEG input is transcoded, not decoded.
    public var losslessJPEG: Bool { format == .jxl && encoding.value(.losslessJPEG, for: .jxl)?.boolean == true }
}
