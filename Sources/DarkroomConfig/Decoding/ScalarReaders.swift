import DarkroomCore
import Foundation

/// Readers for single values; each logs what it expected and returns nil on a bad value.
extension ConfigDecoder {
    func integer(_ node: YAMLNode, _ path: String, in range: ClosedRange<Int>) -> Int? {
        whole(node, path, in: range, "expected an integer from \(range.lowerBound) to \(range.upperBound)")
    }

    func seed(_ node: YAMLNode, _ path: String) -> UInt64? {
        whole(node, path, in: 0...UInt64.max, "expected a whole number from 0 to \(UInt64.max)")
    }

    /// `thumbnails`: a box in pixels, or false for none.
    func thumbnailBox(_ node: YAMLNode, _ path: String) -> Int?? {
        let expectation = "expected the thumbnails' size in pixels (32 to 1024) or false"
        guard let text = scalar(node, path, expectation) else { return nil }
        if ["false", "no", "off"].contains(text.lowercased()) { return .some(nil) }
        guard let box = Int(text), (32...1024).contains(box) else {
            error(node.mark, path, "\(expectation), got \(node.shortDescription)")
            return nil
        }
        return box
    }

    /// A whole number inside `range`; `_` may group digits (`10_000`).
    private func whole<T: FixedWidthInteger>(_ node: YAMLNode, _ path: String, in range: ClosedRange<T>,
                                             _ expectation: String) -> T? {
        guard let text = scalar(node, path, expectation) else { return nil }
        guard let value = T(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
            error(node.mark, path, "\(expectation), got \(node.shortDescription)")
            return nil
        }
        return value
    }

    /// A duration in seconds, fractions allowed (`120`, `0.5`).
    func seconds(_ node: YAMLNode, _ path: String, in range: ClosedRange<Double>) -> Double? {
        number(node, path, in: range, "expected a number of seconds from \(range.lowerBound) to \(Int(range.upperBound))")
    }

    /// A number inside `range`, fractions allowed (`1`, `0.5`).
    func number(_ node: YAMLNode, _ path: String, in range: ClosedRange<Double>, _ expectation: String? = nil) -> Double? {
        let expectation = expectation ?? "expected a number from \(range.lowerBound.formatted()) to \(range.upperBound.formatted())"
        guard let text = scalar(node, path, expectation) else { return nil }
        guard let value = Double(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
            error(node.mark, path, "\(expectation), got \(node.shortDescription)")
            return nil
        }
        return value
    }

    func boolean(_ node: YAMLNode, _ path: String) -> Bool? {
        let expectation = "expected true or false"
        guard let text = scalar(node, path, expectation) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            error(node.mark, path, "\(expectation), got \(node.shortDescription)")
            return nil
        }
    }

    /// One word out of `options` (compared in lower case).
    func word(_ node: YAMLNode, _ path: String, among options: [String]) -> String? {
        let expectation = "expected one of " + options.joined(separator: ", ")
        guard let text = scalar(node, path, expectation) else { return nil }
        let word = text.lowercased()
        guard options.contains(word) else {
            error(node.mark, path, "\(expectation), got \(node.shortDescription)" + suggestionHint(word, options))
            return nil
        }
        return word
    }

    func choice<E: CaseIterable & RawRepresentable<String>>(_ node: YAMLNode, _ path: String, _: E.Type) -> E? {
        word(node, path, among: E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }

    /// A byte count: plain bytes, or with a unit `B`, `kB`, `KiB`, `MB`, `MiB`, `GB`, `GiB`, `TB`, `TiB`.
    func byteSize(_ node: YAMLNode, _ path: String) -> Int? {
        let expectation = "expected a size such as 256MiB, 10MB, 1GiB or a number of bytes"
        guard let text = scalar(node, path, expectation) else { return nil }
        guard let bytes = ByteSize.parse(text), bytes >= 1 else {
            error(node.mark, path, "\(expectation), got \(node.shortDescription)")
            return nil
        }
        return bytes
    }

    /// Non-empty text, e.g. a name or a glob.
    func text(_ node: YAMLNode, _ path: String, _ expectation: String) -> String? {
        guard let text = scalar(node, path, expectation) else { return nil }
        guard !text.isEmpty else {
            error(node.mark, path, "\(expectation), got nothing")
            return nil
        }
        return text
    }

    /// A path made absolute against the config's folder.
    func absolutePath(_ node: YAMLNode, _ path: String, _ expectation: String) -> String? {
        text(node, path, expectation).map { ConfigPath.resolve($0, against: baseDirectory) }
    }

    /// A scalar's text; lists, mappings and nulls are reported against `expectation`.
    private func scalar(_ node: YAMLNode, _ path: String, _ expectation: String) -> String? {
        guard let text = node.text else {
            error(node.mark, path, "\(expectation), got \(node.shortDescription)")
            return nil
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    private func suggestionHint(_ word: String, _ options: [String]) -> String {
        let hint = suggestionText(word, among: options)
        return hint.hasPrefix(" (did you mean") ? hint : ""
    }
}
