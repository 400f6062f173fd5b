/// A 1-based line and column in the config text, where a node or a key starts.
struct SourceMark: Sendable, Hashable, Comparable {
    var line: Int
    var column: Int

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    static func < (l: Self, r: Self) -> Bool {
        (l.line, l.column) < (r.line, r.column)
    }
}

/// One node of a YAML document, with the position it starts at so that every error can
/// point at the value it is about.
struct YAMLNode: Sendable {
    enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    var content: Content
    var mark: SourceMark

    /// The scalar's text, or nil for sequences, mappings and nulls.
    var text: String? {
        guard case .scalar(let s) = content, !s.isNull else { return nil }
        return s.text
    }

    /// True for an empty value (`key:`), `~` or `null`.
    var isNull: Bool {
        if case .scalar(let s) = content { return s.isNull }
        return false
    }

    /// How the node reads in an error message: `"wide"`, `a list`, `a mapping`, `nothing`.
    var shortDescription: String {
        switch content {
        case .scalar(let s): s.isNull ? "nothing" : "\"\(s.text)\""
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// A scalar's text and whether it was written plain (unquoted), which decides whether an
/// empty value or `~` means null.
struct YAMLScalar: Sendable {
    var text: String
    var isPlain: Bool

    var isNull: Bool {
        isPlain && ["", "~", "null", "Null", "NULL"].contains(text)
    }
}

/// One `key: value` entry of a mapping, in the order written.
struct YAMLPair: Sendable {
    var key: YAMLNode
    var value: YAMLNode
}
