import DarkroomCore

/// One output's `chain:` inside a config's text: its steps as written, and the same text with
/// only that chain's lines replaced (comments and every other line untouched). For the preview
/// page, which opens a chain from a config and saves it back.
public struct ConfigChainText: Sendable {
    /// The steps as written: each a filter name and its parameters, unchecked.
    public var steps: [(name: String, arguments: [(name: String, value: RawValue)])]
    /// 1-based lines the chain takes, from its `chain:` key to its last step.
    public var lines: ClosedRange<Int>
    /// Column (1-based) of the `chain` key; the replacement keeps it.
    var keyColumn: Int

    /// Finds `watches[watch].outputs[output].chain` in `text`. Errors say what is missing, or
    /// that the chain is not written in block style on lines of its own (it cannot be replaced
    /// without touching its neighbours then).
    public init(text: String, watch: Int, output: Int) throws(ConfigError) {
        func fail(_ message: String) -> ConfigError {
            ConfigError(diagnostics: [ConfigDiagnostic(file: "config", line: 0, column: 0, message: message)])
        }
        let root: YAMLNode?
        do throws(YAMLSyntaxError) { root = try YAMLReader.read(text) } catch {
            throw ConfigError(diagnostics: [ConfigDiagnostic(file: "config", line: error.mark.line, column: error.mark.column, message: error.message)])
        }
        guard let root, let watches = root.value(forKey: "watches"), case .sequence(let ws) = watches.content, ws.indices.contains(watch),
              let outputs = ws[watch].value(forKey: "outputs"), case .sequence(let os) = outputs.content, os.indices.contains(output),
              case .mapping(let pairs) = os[output].content,
              let index = pairs.firstIndex(where: { $0.key.text == "chain" })
        else { throw fail("the config has no watches[\(watch)].outputs[\(output)].chain") }
        let key = pairs[index].key, value = pairs[index].value
        guard case .sequence(let items) = value.content else {
            throw fail("watches[\(watch)].outputs[\(output)].chain is not a list")
        }
        // The chain ends where the next node that is not inside it starts.
        let after = root.allMarks.filter { $0 > key.mark && $0 != value.mark && !value.contains($0) }.min()
        let textLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var last = (after?.line ?? textLines.count + 1) - 1
        // Inside a flow mapping (`- { path: …, chain: [sepia] }`) the chain shares its lines.
        if after?.line == key.mark.line
            || Self.prefix(of: textLines[key.mark.line - 1], before: key.mark.column).contains(where: { !$0.isWhitespace && $0 != "-" }) {
            throw Self.flowStyle(watch, output)
        }
        // Blank and comment lines after the last step belong to what follows.
        while last > key.mark.line, Self.isBlankOrComment(textLines[last - 1]) { last -= 1 }
        steps = try items.map { (item) throws(ConfigError) -> (name: String, arguments: [(name: String, value: RawValue)]) in
            switch item.content {
            case .scalar(let s): return (s.text, [])
            case .mapping(let p) where p.count == 1:
                guard let name = p[0].key.text else { throw fail("a step of the chain has no filter name") }
                guard case .mapping(let args) = p[0].value.content else { return (name, []) }
                return (name, args.map { (name: $0.key.text ?? "", value: $0.value.rawValue) })
            default: throw fail("a step of the chain is neither a name nor one filter with its parameters")
            }
        }
        lines = key.mark.line...max(key.mark.line, last)
        keyColumn = key.mark.column
    }

    /// `text` with this chain's lines replaced by `chain:` and `yamlSteps` (each one step's YAML,
    /// as written after `- `), indented as the old key was. The key line keeps whatever stood
    /// before the key (the output's `- `).
    public func replacing(in text: String, with yamlSteps: [String]) -> String {
        var textLines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = textLines[lines.lowerBound - 1]
        let lead = String(first.prefix(keyColumn - 1))
        let indent = String(repeating: " ", count: keyColumn - 1)
        let replacement = [lead + "chain:"] + yamlSteps.map { indent + "  - " + $0 }
        textLines.replaceSubrange((lines.lowerBound - 1)...(lines.upperBound - 1), with: replacement)
        return textLines.joined(separator: "\n")
    }

    private static func flowStyle(_ watch: Int, _ output: Int) -> ConfigError {
        ConfigError(diagnostics: [ConfigDiagnostic(file: "config", line: 0, column: 0, message:
            "watches[\(watch)].outputs[\(output)] is written on one line ({ … chain: […] }); write its chain: as a block list to save it from the page")])
    }

    private static func prefix(of line: Substring, before column: Int) -> Substring { line.prefix(max(0, column - 1)) }

    private static func isBlankOrComment(_ line: Substring) -> Bool {
        let t = line.drop { $0 == " " || $0 == "\t" }
        return t.isEmpty || t.hasPrefix("#")
    }
}

extension YAMLNode {
    /// The value of `key` in a mapping node.
    func value(forKey key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = content else { return nil }
        return pairs.first { $0.key.text == key }?.value
    }

    /// This node's mark and those of every node inside it, keys included.
    var allMarks: [SourceMark] {
        switch content {
        case .scalar: [mark]
        case .sequence(let items): [mark] + items.flatMap(\.allMarks)
        case .mapping(let pairs): [mark] + pairs.flatMap { $0.key.allMarks + $0.value.allMarks }
        }
    }

    /// Whether `other` is the mark of a node inside this one.
    func contains(_ other: SourceMark) -> Bool {
        switch content {
        case .scalar: false
        case .sequence(let items): items.contains { $0.mark == other || $0.contains(other) }
        case .mapping(let pairs): pairs.contains { $0.key.mark == other || $0.value.mark == other || $0.key.contains(other) || $0.value.contains(other) }
        }
    }

    /// The node as a core ``RawValue`` (scalars as their text).
    var rawValue: RawValue {
        switch content {
        case .scalar(let s): .scalar(s.text)
        case .sequence(let items): .list(items.map(\.rawValue))
        case .mapping(let pairs): .mapping(pairs.map { RawField($0.key.text ?? "", $0.value.rawValue) })
        }
    }
}
