/// Keeps names within Linux's 255 bytes a name: a name that would be longer (a report's
/// `NAME.json` for a 250-byte input name, an output named `{name}.png`) is cut at a character
/// boundary and given a hash of the whole name, so distinct long names stay distinct and the
/// same name always gets the same short one.
enum NameFit {
    static let maximumBytes = 255

    /// `name + suffix` when it fits, else a prefix of `name`, `~`, 16 hex digits of the
    /// SHA-256 of `name`, then `suffix`.
    static func fit(_ name: String, suffix: String = "") -> String {
        let suffixBytes = RawName.bytes(of: suffix).count
        guard RawName.bytes(of: name).count + suffixBytes > maximumBytes else { return name + suffix }
        let mark = "~" + String(SHA256.hex(RawName.bytes(of: name)).prefix(16))
        let room = maximumBytes - suffixBytes - mark.utf8.count
        var kept = String.UnicodeScalarView(), used = 0
        for scalar in name.unicodeScalars {
            let size = RawName.bytes(of: String(scalar)).count
            guard used + size <= room else { break }
            kept.append(scalar)
            used += size
        }
        return String(kept) + mark + suffix
    }

    /// `path` with its last component fitted, keeping its extension (`.jpg`).
    static func fitFileName(of path: String) -> String {
        let name = FileIO.fileName(of: path)
        guard RawName.bytes(of: name).count > maximumBytes else { return path }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        return FileIO.parent(of: path) + "/" + fit(stem, suffix: ext.utf8.count < 32 ? ext : "")
    }
}
