/// The one-line chain syntax of `darkroom process --chain`:
/// `resize width=800 fit=inside | sepia intensity=0.8 | transform rotate=-45deg translate=[-50%,12.5%]`.
///
/// Filters are separated by `|`; each is a name followed by `key=value` pairs. A value in
/// brackets is a list (`[a, b]`), and lists nest (`kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]]`);
/// one in braces is a record (`shapes=[{shape=rect, rect=[0,0,50%,10%], fill=black}]`).
public enum ChainSyntax {
    /// Lists nest at most this deep (a kernel needs 2). Parsing recurses per level, so hostile
    /// input such as 100 000 `[` must be refused before it exhausts the stack.
    public static let maximumNesting = 8

    public static func parse(_ text: String, registry: FilterRegistry = .standard,
                             assets: any AssetResolver = NoAssets()) throws(ParameterError) -> ChainSpec {
        try checkBrackets(text)
        var steps = [FilterInvocation]()
        for (index, part) in splitTopLevel(text, on: "|").enumerated() {
            let words = splitTopLevel(part, on: " ").filter { !$0.isEmpty }
            guard let name = words.first else {
                throw ParameterError("step \(index + 1) of the chain is empty")
            }
            var args = [(name: String, value: RawValue)]()
            for word in words.dropFirst() {
                guard let eq = word.firstIndex(of: "=") else {
                    throw ParameterError("\(name): expected key=value, got \"\(word)\"")
                }
                let key = String(word[..<eq]), value = String(word[word.index(after: eq)...])
                args.append((key, try parseValue(value)))
            }
            steps.append(try FilterInvocation(name: name, rawArguments: args, registry: registry, assets: assets))
        }
        guard !steps.isEmpty else { throw ParameterError("the chain is empty") }
        return ChainSpec(steps, registry: registry, assets: assets)
    }

    /// Refuses unbalanced brackets and nesting deeper than ``maximumNesting``, in one scan.
    static func checkBrackets(_ text: String) throws(ParameterError) {
        var open = [Character]()
        for ch in text {
            if ch == "[" || ch == "{" {
                open.append(ch)
                guard open.count <= maximumNesting else {
                    throw ParameterError("lists nest more than \(maximumNesting) levels deep; a kernel needs two ([[1, 2, 1], …])")
                }
            } else if ch == "]" || ch == "}" {
                let opener: Character = ch == "]" ? "[" : "{"
                guard open.popLast() == opener else { throw ParameterError("a \"\(ch)\" closes no \"\(opener)\" in the chain") }
            }
        }
        if let unclosed = open.last { throw ParameterError("a \"\(unclosed)\" is never closed in the chain") }
    }

    /// `[a, [b, c]]` → nested lists; anything else is a scalar.
    static func parseValue(_ text: String) throws(ParameterError) -> RawValue {
        let t = text.trimmed
        if t.hasPrefix("{") {
            guard t.hasSuffix("}") else { throw ParameterError("unbalanced braces in \"\(text)\"") }
            var fields = [RawField]()
            for item in splitTopLevel(String(t.dropFirst().dropLast()), on: ",") where !item.isEmpty {
                guard let eq = item.firstIndex(of: "=") else {
                    throw ParameterError("expected key=value inside {…}, got \"\(item)\"")
                }
                fields.append(RawField(String(item[..<eq]).trimmed, try parseValue(String(item[item.index(after: eq)...]))))
            }
            return .mapping(fields)
        }
        guard t.hasPrefix("[") else { return .scalar(t) }
        guard t.hasSuffix("]") else { throw ParameterError("unbalanced brackets in \"\(text)\"") }
        let inner = String(t.dropFirst().dropLast())
        if inner.trimmed.isEmpty { return .list([]) }
        var items = [RawValue]()
        for item in splitTopLevel(inner, on: ",") { items.append(try parseValue(item)) }
        return .list(items)
    }

    /// Splits on `separator` outside brackets.
    static func splitTopLevel(_ text: String, on separator: Character) -> [String] {
        var parts = [String](), current = "", depth = 0, quoted = false
        for ch in text {
            // A double-quoted value (a path's d="M 0 0 L 9 9, …") keeps its spaces and commas.
            if ch == "\"" {
                quoted.toggle()
            } else if !quoted, ch == "[" || ch == "{" {
                depth += 1
            } else if !quoted, ch == "]" || ch == "}" {
                depth -= 1
            }
            if ch == separator && depth == 0 && !quoted {
                parts.append(current.trimmed)
                current = ""
            } else {
                current.append(ch)
            }
        }
        parts.append(current.trimmed)
        return parts
    }
}
