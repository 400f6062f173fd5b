/// What is known about the file a job processes, for text parameters to name as placeholders:
/// `{stem}`, `{name}`, `{date}` and EXIF fields (`{exif.Artist}`, `{exif.Copyright}`,
/// `{exif.DateTimeOriginal}`), so one config stamps each photo with its own credit line. The
/// daemon fills it per job; the core knows no files, only these values.
public struct InputFacts: Sendable, Hashable {
    /// Values by placeholder name (`stem`, `exif.Artist`); a name with no value fills in empty.
    var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    /// The EXIF fields a placeholder may name.
    public static let exifFields = ["Artist", "Copyright", "DateTimeOriginal"]

    /// Every placeholder a text may hold.
    public static let names = ["stem", "name", "date"] + exifFields.map { "exif." + $0 }

    /// `template` with each `{placeholder}` replaced by its value (empty when the file has none:
    /// a photo without an Artist gets no credit, not the word "{exif.Artist}"). `{{` and `}}`
    /// write a brace.
    func fill(_ template: String) -> String {
        var out = "", rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            out += rest[..<open]
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after] == rest[open] {
                out.append(rest[open])
                rest = rest[rest.index(after: after)...]
                continue
            }
            guard rest[open] == "{", let close = rest[after...].firstIndex(of: "}") else {
                out.append(rest[open])
                rest = rest[after...]
                continue
            }
            out += values[String(rest[after..<close])] ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// Checks that every `{placeholder}` in `template` is one of ``names``.
    static func check(_ template: String) throws(ParameterError) {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after] == "{" { rest = rest[rest.index(after: after)...]; continue }
            guard let close = rest[after...].firstIndex(of: "}") else {
                throw ParameterError("an unclosed { (write {{ for a brace)")
            }
            let name = String(rest[after..<close])
            guard names.contains(name) else {
                throw ParameterError("unknown placeholder {\(name)}" + suggestionText(name, among: names))
            }
            rest = rest[rest.index(after: close)...]
        }
    }
}
