/// Help text wrapped by hand, for the places ArgumentParser prints as written (a command's
/// discussion, whose wrapped lines it does not indent) and for tables in a terminal.
enum TextWrap {
    /// `text` after `head`, in lines of at most `width` columns, the later ones indented as far as `head`.
    /// 79 by default: ArgumentParser wraps a discussion again at the terminal's width (80 when
    /// piped), and breaks a line that fills every column, not only one that is longer.
    static func lines(_ head: String, _ text: String, width: Int = 79) -> [String] {
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
