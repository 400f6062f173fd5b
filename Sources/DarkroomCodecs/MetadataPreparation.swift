import CDarkroomCodecs
import DarkroomCore

extension ImageMetadata {
    /// JPEG marker segments hold 65533 bytes, less each block's signature ("Exif\0\0", the XMP
    /// namespace, the Photoshop and 8BIM resource headers and a pad byte). Extended XMP is not
    /// written.
    private static let jpegLimits = (exif: 65533 - 6, xmp: 65533 - 29, iptc: 65533 - 14 - 12 - 1)

    /// What an output of `size` in `format` carries of these blocks under `policy`, and what went
    /// wrong on the way (an unreadable EXIF block is left out with a warning, never an error).
    /// - Parameters:
    ///   - orientationApplied: the pixels were turned upright, so the EXIF (and XMP `tiff:`)
    ///     Orientation is reset to 1; otherwise it is kept, since the pixels are still as stored.
    ///   - convertedToSRGB: the pixels were converted to sRGB, so EXIF ColorSpace (where
    ///     present, e.g. 65535 "uncalibrated" for Adobe RGB) becomes 1.
    public func prepared(for policy: MetadataPolicy, size: Size, format: ImageFormat, orientationApplied: Bool,
                         convertedToSRGB: Bool = false) -> (metadata: ImageMetadata, warnings: [String]) {
        guard policy.content != .strip else { return (ImageMetadata(), []) }
        var out = ImageMetadata(), warnings = [String]()
        if let exif {
            let edit = dr_exif_edit(orientation_upright: orientationApplied ? 1 : 0, width: Int32(clamping: size.width),
                                    height: Int32(clamping: size.height), remove_gps: policy.gps ? 0 : 1,
                                    copyright_only: policy.content == .copyright ? 1 : 0, srgb: convertedToSRGB ? 1 : 0)
            let (rewritten, warning) = Self.rewrite(exif, edit)
            out.exif = rewritten
            if let warning { warnings.append(warning) }
        }
        switch policy.content {
        case .keep:
            if let xmp {
                let updated = XMPEditing.updating(xmp, orientationUpright: orientationApplied, width: size.width, height: size.height)
                out.xmp = policy.gps ? updated : XMPEditing.removingGPS(from: updated)
                if out.xmp == nil { warnings.append("XMP left out: its GPS position could not be removed from it alone") }
            }
            out.iptc = iptc
        case .copyright:
            out.xmp = xmp.flatMap(XMPEditing.ownership)
            out.iptc = iptc.flatMap(IPTCRecords.ownership)
        case .strip:
            break
        }
        out.xmp = out.xmp.map(XMPEditing.wrapped)
        if format == .jpeg { out.dropBlocksTooLargeForJPEG(&warnings) }
        if format == .webp || format == .avif || format == .jxl, out.iptc != nil {
            out.iptc = nil
            warnings.append("IPTC left out: \(format.displayName) has no place for it (EXIF and XMP are kept)")
        }
        return (out, warnings)
    }

    /// The rewritten EXIF block (nil when unreadable) and a warning, if any.
    private static func rewrite(_ exif: [UInt8], _ edit: dr_exif_edit) -> ([UInt8]?, String?) {
        var edit = edit
        var output = dr_buffer()
        defer { dr_buffer_free(&output) }
        var message = [CChar](repeating: 0, count: CBridge.messageCapacity)
        let status = exif.withUnsafeBufferPointer { tiff in
            dr_exif_rewrite(tiff.baseAddress, tiff.count, &edit, &output, &message, message.count)
        }
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard status == DR_OK else { return (nil, "EXIF left out: " + (text.isEmpty ? "it could not be read" : text)) }
        let warning = text.isEmpty ? nil : text
        guard let data = output.data, output.length > 0 else { return (nil, warning) }
        return (Array(UnsafeBufferPointer(start: data, count: output.length)), warning)
    }

    private mutating func dropBlocksTooLargeForJPEG(_ warnings: inout [String]) {
        let limits = Self.jpegLimits
        if let e = exif, e.count > limits.exif { exif = nil; warnings.append("EXIF left out: \(e.count) bytes is more than a JPEG marker holds") }
        if let x = xmp, x.count > limits.xmp { xmp = nil; warnings.append("XMP left out: \(x.count) bytes is more than a JPEG marker holds") }
        if let i = iptc, i.count > limits.iptc { iptc = nil; warnings.append("IPTC left out: \(i.count) bytes is more than a JPEG marker holds") }
    }
}
