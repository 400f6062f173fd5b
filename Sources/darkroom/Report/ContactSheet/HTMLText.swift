/// Text put into HTML: as element content or a quoted attribute value, and JSON inside a
/// `<script>` element (where only `</` could end it early).
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// JSON text that can sit inside `<script type="application/json">`: `<` written as
    /// `\u003c`, which JSON.parse reads back as `<`.
    static func scriptSafeJSON(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
