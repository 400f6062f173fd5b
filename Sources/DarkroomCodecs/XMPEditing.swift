import Foundation

/// The few edits an XMP packet needs on its way to an output, done on the text: properties are
/// written either as attributes of an `rdf:Description` or as elements, under whatever prefix
/// the packet binds to their namespace. No XMP toolkit is needed for these simple properties.
enum XMPEditing {
    private static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    private static let tiffNamespace = "http://ns.adobe.com/tiff/1.0/"
    private static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    /// The properties that say who made a picture and who owns it, by namespace.
    private static let ownershipProperties = [
        ("http://purl.org/dc/elements/1.1/", ["creator", "rights"]),
        ("http://ns.adobe.com/xap/1.0/rights/", ["Marked", "Owner", "UsageTerms", "WebStatement"]),
    ]

    /// The packet inside an `<?xpacket?>` wrapper, which JPEG readers expect (exiftool warns
    /// without it); a packet that has one is returned as it is.
    static func wrapped(_ xmp: [UInt8]) -> [UInt8] {
        guard !xmp.starts(with: Array("<?xpacket".utf8)), !String(decoding: xmp, as: UTF8.self).contains("<?xpacket begin") else {
            return xmp
        }
        return Array(#"<?xpacket begin="\#u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>"#.utf8) + xmp
            + Array("\n<?xpacket end=\"w\"?>".utf8)
    }

    /// A fresh packet holding only the ownership properties of `xmp` (Dublin Core creator and
    /// rights, the xmpRights schema), or nil when it has none or is not in the usual form.
    static func ownership(from xmp: [UInt8]) -> [UInt8]? {
        let text = String(decoding: xmp, as: UTF8.self)
        // Copied elements hold rdf:Seq/rdf:Alt under the packet's own rdf prefix.
        guard prefix(of: rdfNamespace, in: text) == "rdf" else { return nil }
        var declarations = [String](), properties = [String]()
        for (namespace, names) in ownershipProperties {
            guard let p = prefix(of: namespace, in: text) else { continue }
            var found = false
            for name in names {
                let q = NSRegularExpression.escapedPattern(for: "\(p):\(name)")
                for element in matches(#"<\#(q)\b[^>]*?(/>|>.*?</\#(q)\s*>)"#, in: text) {
                    properties.append(element)
                    found = true
                }
                for value in matches(#"\s\#(q)\s*=\s*("[^"]*"|'[^']*')"#, in: text, group: 1) {
                    properties.append("<\(p):\(name)>\(value.dropFirst().dropLast())</\(p):\(name)>")
                    found = true
                }
            }
            if found { declarations.append("xmlns:\(p)=\"\(namespace)\"") }
        }
        guard !properties.isEmpty else { return nil }
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="\(rdfNamespace)">
              <rdf:Description rdf:about="" \(declarations.joined(separator: " "))>
               \(properties.joined(separator: "\n   "))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        return Array(packet.utf8)
    }

    /// The text of every match of `pattern` (or of its capture `group`).
    private static func matches(_ pattern: String, in text: String, group: Int = 0) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

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
