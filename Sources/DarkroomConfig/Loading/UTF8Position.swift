/// Where a byte string stops being UTF-8, as an editor shows it: so `darkroom check` can point
/// at the character to fix instead of saying only that the file is not UTF-8.
enum UTF8Position {
    /// The first byte that does not start a valid UTF-8 sequence (1-based line and column; the
    /// column counts characters, as editors do), or nil when every byte is valid.
    static func firstInvalid(in bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            guard length > 0 else { return (line, column, bytes[index]) }
            if bytes[index] == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
            index += length
        }
        return nil
    }

    /// The length of the valid sequence starting at `index`, or 0 (RFC 3629: no overlong forms,
    /// no surrogates, nothing past U+10FFFF).
    private static func validSequenceLength(_ b: [UInt8], at i: Int) -> Int {
        let first = b[i]
        if first < 0x80 { return 1 }
        let length: Int, minimum: UInt32
        switch first {
        case 0xC2...0xDF: (length, minimum) = (2, 0x80)
        case 0xE0...0xEF: (length, minimum) = (3, 0x800)
        case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
        default: return 0
        }
        guard i + length <= b.count else { return 0 }
        var scalar = UInt32(first) & (0x7F >> length)
        for k in 1..<length {
            guard b[i + k] & 0xC0 == 0x80 else { return 0 }
            scalar = scalar << 6 | UInt32(b[i + k] & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return 0 }
        return length
    }
}
