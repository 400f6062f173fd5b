/// The one-line chain syntax of `darkroom process --chain`:
/// `resize width=800 fit=inside | sepia intensity=0.8 | transform rotate=-45deg translate=[-50%,12.5%]`.
///
/// Filters are separated by `|`; each is a name followed by `key=value` pairs. A value in
/// brackets is a list (`[a, b]`), and lists nest (`kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]]`);
/// one in braces is a record (`shapes=[{shape=rect, rect=[0,0,50%,10%], fill=black}]`); one in
/// double quotes is taken as written, spaces, brackets and braces included (`text="© {exif.Artist}"`;
/// `\"` and `\\` inside write a quote and a backslash). A sub-chain (a `group`'s `chain`) is
/// steps in brackets separated by `|`: `group opacity=0.5 chain=[sepia | gaussian_blur radius=2]`.
public enum ChainSyntax {
    /// Lists nest at most this deep (a kernel needs 2). Parsing recurses per level, so hostile
    /// input such as 100 000 `[` must be refused before it exhausts the stack.
    static let maximumNesting = 8

    public static func parse(_ text: String, registry: FilterRegistry = .standard,
                             assets: any AssetResolver = NoAssets()) throws(ParameterError) -> ChainSpec {
        try checkBrackets(text)
        var steps = [FilterInvocation]()
        for (index, part) in splitTopLevel(text, on: "|").enumerated() {
            let (name, args) = try parseStep(part, index: index, registry: registry)
            steps.append(try FilterInvocation(name: name, rawArguments: args, registry: registry, assets: assets))
        }
        guard !steps.isEmpty else { throw ParameterError("the chain is empty") }
        return ChainSpec(steps, registry: registry, assets: assets)
    }

    /// One step: a name and its `key=value` pairs, not yet checked against the descriptor (the
    /// preview page turns them into config YAML this way). A sub-chain's value (a `group`'s
    /// `chain`) is steps in brackets, separated by `|` as here (`chain=[sepia | gaussian_blur radius=2]`),
    /// read into the form a config gives, so both are checked alike.
    package static func parseStep(_ part: String, index: Int, registry: FilterRegistry) throws(ParameterError)
        -> (name: String, arguments: [(name: String, value: RawValue)]) {
        let words = splitTopLevel(part, on: " ").filter { !$0.isEmpty }
        guard let name = words.first else {
            throw ParameterError("step \(index + 1) of the chain is empty")
        }
        let descriptor = registry.type(named: name)?.descriptor
        var args = [(name: String, value: RawValue)]()
        for word in words.dropFirst() {
            guard let eq = word.firstIndex(of: "=") else {
                throw ParameterError("\(name): expected key=value, got \"\(word)\"")
            }
            let key = String(word[..<eq]), value = String(word[word.index(after: eq)...])
            if descriptor?.parameter(named: key)?.kind == .chain {
                args.append((key, try parseSubChain(value, key: "\(name).\(key)", registry: registry)))
            } else {
                args.append((key, try parseValue(value)))
            }
        }
        return (name, args)
    }

    /// `[sepia intensity=0.8 | invert]` → `[{sepia: {intensity: "0.8"}}, "invert"]`.
    static func parseSubChain(_ text: String, key: String, registry: FilterRegistry) throws(ParameterError) -> RawValue {
        let t = text.trimmed
        guard t.hasPrefix("["), t.hasSuffix("]") else {
            throw ParameterError("\(key): expected a sub-chain in brackets, steps separated by | "
                                 + "(chain=[sepia | gaussian_blur radius=2]), got \"\(text)\"")
        }
        let inner = String(t.dropFirst().dropLast())
        var steps = [RawValue]()
        for (index, part) in splitTopLevel(inner, on: "|").enumerated() where !inner.trimmed.isEmpty {
            let (name, args) = try parseStep(part, index: index, registry: registry)
            steps.append(args.isEmpty ? .scalar(name) : .mapping([RawField(name, .mapping(args.map { RawField($0.name, $0.value) }))]))
        }
        return .list(steps)
    }

    /// Refuses unbalanced brackets and nesting deeper than ``maximumNesting``, in one scan.
    static func checkBrackets(_ text: String) throws(ParameterError) {
        var open = [Character]()
        for (ch, quoted) in scanQuotes(text) where !quoted {
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
        if t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") {
            var out = "", escaped = false
            for ch in t.dropFirst().dropLast() {
                if escaped || ch != "\\" { out.append(ch); escaped = false } else { escaped = true }
            }
            return .scalar(out)
        }
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

    /// Each character of `text` and whether it lies inside a double-quoted value (the quotes
    /// themselves included; a backslash escapes the next character inside).
    static func scanQuotes(_ text: String) -> [(Character, Bool)] {
        var out = [(Character, Bool)](), inside = false, escaped = false
        for ch in text {
            if inside {
                out.append((ch, true))
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inside = false }
            } else {
                if ch == "\"" { inside = true }
                out.append((ch, inside))
            }
        }
        return out
    }

    /// Splits on `separator` outside brackets and quotes.
    static func splitTopLevel(_ text: String, on separator: Character) -> [String] {
        var parts = [String](), current = "", depth = 0
        for (ch, quoted) in scanQuotes(text) {
            if !quoted { if ch == "[" || ch == "{" { depth += 1 } else if ch == "]" || ch == "}" { depth -= 1 } }
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
