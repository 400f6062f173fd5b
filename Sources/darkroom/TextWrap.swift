/// Help text wrapped by hand, for the places ArgumentParser prints as written (a command's
/// discussion, whose wrapped lines it does not indent) and for the listings printed to a terminal.
enum TextWrap {
    /// `text` after `head`, in lines of at most `width` columns, the later ones indented as far as `head`.
    /// 79 by default: ArgumentParser wraps a discussion again at the terminal's width (80 when
    /// piped), and breaks a line that fills every column, not only one that is longer.
    /// `indent` sets the later lines' indent instead (a filter's description under its name).
    static func lines(_ head: String, _ text: String, width: Int = 79, indent: Int? = nil) -> [String] {
        var lines = [String](), line = head, start = head.count
        for (piece, glued) in pieces(of: text, room: width - (indent ?? head.count)) {
            if line.count + (glued ? 0 : 1) + piece.count > width, line.count > start {
                lines.append(line)
                start = indent ?? head.count
                line = String(repeating: " ", count: start)
            }
            line += (line.count == start || glued ? "" : " ") + piece
        }
        return lines + [line]
    }

    /// The words of `text`; one wider than `room` (a long list of choices, `a|b|c`) is cut after
    /// each `|`, its later pieces glued to the one before unless a line breaks between them.
    private static func pieces(of text: String, room: Int) -> [(Substring, glued: Bool)] {
        text.split(separator: " ").flatMap { word -> [(Substring, glued: Bool)] in
            guard word.count > room, word.contains("|") else { return [(word, false)] }
            var cuts = [(Substring, glued: Bool)](), from = word.startIndex
            while let bar = word[from...].firstIndex(of: "|") {
                cuts.append((word[from...bar], !cuts.isEmpty))
                from = word.index(after: bar)
            }
            return cuts + (from < word.endIndex ? [(word[from...], true)] : [])
        }
    }
}
