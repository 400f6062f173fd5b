/// File names as Linux has them — any bytes but `/` and NUL — carried in Swift strings.
///
/// A name that is not valid UTF-8 cannot be a Swift `String` as it is, and `String(cString:)`
/// would replace its bad bytes with U+FFFD, naming a file that does not exist. So each byte of
/// an invalid sequence is carried as one code point of the last private-use plane
/// (U+10FF80…U+10FFFF), and every system call gets the original bytes back through
/// ``withCString(_:_:)``. People see such names through ``display(_:)``, with `\xE9` escapes.
public enum RawName {
    /// Where the carried bytes 0x80…0xFF live: U+10FF00 + byte.
    static let escapeBase: UInt32 = 0x10FF00

    /// The string for a name or path as the kernel gave it.
    public static func string<C: Collection<UInt8>>(fromBytes bytes: C) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var scalars = String.UnicodeScalarView()
        let all = Array(bytes)  // to copy the bytes of invalid sequences from
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                scalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in all[offset..<offset + length] {
                    scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!)
                }
                offset += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The bytes a system call must get for `path` (no terminating NUL).
    public static func bytes(of path: String) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Runs `body` with `path` as the C string the kernel knows it by.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard path.unicodeScalars.contains(where: { $0.value >= escapeBase + 0x80 }) else {
            return try path.withCString(body)  // the common case: plain UTF-8
        }
        var raw = bytes(of: path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `path` for people and logs, on one line: raw bytes as `\xE9`, control characters (which
    /// could move a terminal's cursor or forge a log line) as `\n`, `\t`, `\x1B`, `\u{9B}`.
    public static func display(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v >= escapeBase + 0x80 && v <= escapeBase + 0xFF {
                out += "\\x" + hex(v - escapeBase)
            } else if v == 0x0A {
                out += "\\n"
            } else if v == 0x0D {
                out += "\\r"
            } else if v == 0x09 {
                out += "\\t"
            } else if v < 0x20 || v == 0x7F {
                out += "\\x" + hex(v)
            } else if (0x80...0x9F).contains(v) {
                out += "\\u{" + hex(v) + "}"
            } else if v == 0x5C {
                out += "\\\\"  // so that an escape in the output always means one
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return s.count < 2 ? "0" + s : s
    }
}
