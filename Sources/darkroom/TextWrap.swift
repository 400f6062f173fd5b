/// Help text wrapped by hand, for the places ArgumentParser prints as written (a command's
/// discussion, whose wrapped lines it does not indent) and for tables in a terminal.
enum TextWrap {
    /// `text` after `head`, in lines of at most `width` columns, the later ones indented as far as `head`.
    static func lines(_ head: String, _ text: String, width: Int = 80) -> [String] {
        var lines = [String](), line = head
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line.count > head.count {
                lines.append(line)
                line = String(repeating: " ", count: head.count)
            }
            line += (line.count == head.count ? "" : " ") + word
        }
        return lines + [line]
    }
}
