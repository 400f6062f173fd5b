import Foundation
import DarkroomCore

/// Values written in the one-line `process` syntax (``ChainSyntax``).
enum ChainText {
    /// Characters that end or split a bare value; a value holding one is written in quotes.
    private static let special: Set<Character> = [" ", "\t", "|", "[", "]", "{", "}", "\"", "\\", ",", "="]

    /// A parameter's value as it follows `name=`: lists, records and sub-chains as typed (they
    /// are in the syntax already), anything else quoted when it holds a separator.
    static func argument(_ value: String, kind: ParameterKind) -> String {
        let t = value.trimmingCharacters(in: .whitespaces)
        if takesSyntax(kind) || (kind == .color && t.hasPrefix("[")) { return t }
        return quotedIfNeeded(value)
    }

    /// A value as its control on the page shows it: a plain value as its text, a list, record
    /// or sub-chain in the syntax.
    static func control(_ value: RawValue, kind: ParameterKind) -> String {
        switch (value, kind) {
        case (.scalar(let s), _): s
        case (.list(let steps), .chain): "[" + steps.map(step).joined(separator: " | ") + "]"
        default: nested(value)
        }
    }

    private static func step(_ raw: RawValue) -> String {
        switch raw {
        case .scalar(let name): name
        case .mapping(let fields) where fields.count == 1:
            if case .mapping(let args) = fields[0].value {
                ([fields[0].key] + args.map { "\($0.key)=\(nested($0.value))" }).joined(separator: " ")
            } else { fields[0].key }
        default: nested(raw)
        }
    }

    private static func nested(_ value: RawValue) -> String {
        switch value {
        case .scalar(let s): quotedIfNeeded(s)
        case .list(let items): "[" + items.map(nested).joined(separator: ", ") + "]"
        case .mapping(let fields): "{" + fields.map { "\($0.key)=\(nested($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    private static func quotedIfNeeded(_ s: String) -> String {
        guard s.isEmpty || s.contains(where: special.contains) else { return s }
        return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Kinds whose values are lists, records or sub-chains in the syntax.
    static func takesSyntax(_ kind: ParameterKind) -> Bool {
        switch kind {
        case .point, .rect, .lengths, .numbers, .matrix, .records, .record, .chain: true
        default: false
        }
    }
}

/// Values written as YAML flow nodes, for a chain's lines in a config.
enum YAMLText {
    /// A scalar plain where YAML reads it back as the same text, else double-quoted.
    static func scalar(_ s: String) -> String {
        let plain = !s.isEmpty && s.first.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" } == true
            && s.allSatisfy { $0.isLetter || $0.isNumber || "-._%+".contains($0) } && s != "-"
            && !["null", "Null", "NULL", "~"].contains(s)
        if plain { return s }
        var out = "\""
        for ch in s {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(ch)
            }
        }
        return out + "\""
    }

    /// A value in flow style: `0.8`, `[1, 2]`, `{ shape: rect, fill: red }`.
    static func flow(_ value: RawValue) -> String {
        switch value {
        case .scalar(let s): scalar(s)
        case .list(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
        case .mapping(let fields): "{ " + fields.map { scalar($0.key) + ": " + flow($0.value) }.joined(separator: ", ") + " }"
        }
    }
}
