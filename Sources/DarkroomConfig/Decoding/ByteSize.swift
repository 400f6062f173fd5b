import Foundation

/// Sizes as people write them: `256MiB`, `10MB`, `1.5GiB`, `4096`.
enum ByteSize {
    /// Units by lower-cased name: decimal (kB, MB…) and binary (KiB, MiB…).
    static let units: [String: Double] = [
        "": 1, "b": 1,
        "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
        "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824, "tib": 1_099_511_627_776,
    ]

    /// The number of bytes, or nil for unreadable text or a size beyond `Int.max`.
    static func parse(_ text: String) -> Int? {
        let s = text.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: " ", with: "")
        let digits = s.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), let factor = units[s.dropFirst(digits.count).lowercased()] else {
            return nil
        }
        let bytes = (number * factor).rounded()
        guard bytes.isFinite, bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }
}
