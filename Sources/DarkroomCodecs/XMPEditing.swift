import Foundation

/// The few edits an XMP packet needs on its way to an output, done on the text: properties are
/// written either as attributes of an `rdf:Description` or as elements, under whatever prefix
/// the packet binds to their namespace. No XMP toolkit is needed for these simple properties.
enum XMPEditing {
    private static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    private static let tiffNamespace = "http://ns.adobe.com/tiff/1.0/"

    /// The packet without its `exif:GPS…` properties, or nil when one is left after that (an
    /// unusual serialisation): a position never leaks.
    static func removingGPS(from xmp: [UInt8]) -> [UInt8]? {
        var text = String(decoding: xmp, as: UTF8.self)
        guard let prefix = prefix(of: exifNamespace, in: text) else { return xmp }  // no EXIF namespace: no GPS
        let p = NSRegularExpression.escapedPattern(for: prefix)
        replace(#"\s+\#(p):GPS[A-Za-z]*\s*=\s*("[^"]*"|'[^']*')"#, with: "", in: &text)          // attribute
        replace(#"<\#(p):GPS([A-Za-z]*)\b[^>]*/>"#, with: "", in: &text)                            // empty element
        replace(#"<\#(p):GPS([A-Za-z]*)\b[^>]*>.*?</\#(p):GPS\1\s*>"#, with: "", in: &text)        // element
        return text.contains("\(prefix):GPS") ? nil : Array(text.utf8)
    }

    /// The packet with `tiff:Orientation` 1 (when the pixels were turned upright) and the pixel
    /// size properties (`exif:PixelXDimension`/`PixelYDimension`, `tiff:ImageWidth`/`ImageLength`)
    /// set to the output's, where the packet has them.
    static func updating(_ xmp: [UInt8], orientationUpright: Bool, width: Int, height: Int) -> [UInt8] {
        var text = String(decoding: xmp, as: UTF8.self)
        if let tiff = prefix(of: tiffNamespace, in: text) {
            if orientationUpright { set(tiff, "Orientation", to: "1", in: &text) }
            set(tiff, "ImageWidth", to: "\(width)", in: &text)
            set(tiff, "ImageLength", to: "\(height)", in: &text)
        }
        if let exif = prefix(of: exifNamespace, in: text) {
            set(exif, "PixelXDimension", to: "\(width)", in: &text)
            set(exif, "PixelYDimension", to: "\(height)", in: &text)
        }
        return Array(text.utf8)
    }

    /// Sets a simple property's value, in attribute or element form.
    private static func set(_ prefix: String, _ name: String, to value: String, in text: inout String) {
        let p = NSRegularExpression.escapedPattern(for: prefix + ":" + name)
        replace(#"(\s\#(p)\s*=\s*)("[^"]*"|'[^']*')"#, with: "$1\"\(value)\"", in: &text)
        replace(#"(<\#(p)\s*>)[^<]*(</\#(p)\s*>)"#, with: "$1\(value)$2", in: &text)
    }

    private static func replace(_ pattern: String, with template: String, in text: inout String) {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return }
        text = regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }

    /// The prefix the packet binds to `namespace` (usually `exif`, `tiff`).
    private static func prefix(of namespace: String, in text: String) -> String? {
        let pattern = #"xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']"# + NSRegularExpression.escapedPattern(for: namespace) + #"["']"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }
}
