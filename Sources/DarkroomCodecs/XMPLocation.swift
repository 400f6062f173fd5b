import Foundation

/// Removes the GPS position from an XMP packet: the `exif:GPS…` properties, written either as
/// attributes of an `rdf:Description` or as elements. A packet with a GPS property left after
/// that (an unusual serialisation) is not returned at all, so a position never leaks.
enum XMPLocation {
    private static let exifNamespace = "http://ns.adobe.com/exif/1.0/"

    static func removingGPS(from xmp: [UInt8]) -> [UInt8]? {
        var text = String(decoding: xmp, as: UTF8.self)
        guard let prefix = prefix(in: text) else { return xmp }  // no EXIF namespace: no GPS
        let p = NSRegularExpression.escapedPattern(for: prefix)
        let patterns = [
            #"\s+\#(p):GPS[A-Za-z]*\s*=\s*("[^"]*"|'[^']*')"#,             // attribute
            #"<\#(p):GPS([A-Za-z]*)\b[^>]*/>"#,                             // empty element
            #"<\#(p):GPS([A-Za-z]*)\b[^>]*>.*?</\#(p):GPS\1\s*>"#,          // element with content
        ]
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return nil }
            text = regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        }
        return text.contains("\(prefix):GPS") ? nil : Array(text.utf8)
    }

    /// The prefix the packet binds to the EXIF namespace (usually `exif`).
    private static func prefix(in text: String) -> String? {
        let pattern = #"xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']"# + NSRegularExpression.escapedPattern(for: exifNamespace) + #"["']"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }
}
