import CYAML

/// Reads YAML text into a ``YAMLNode`` tree using libyaml's event parser.
///
/// Only what a config needs: scalars, sequences and mappings, in block or flow style.
/// Anchors and aliases are refused (a config should say what it means where it says it), as are
/// several documents in one file.
enum YAMLReader {
    /// Deeper nesting than any config needs is refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 64

    /// The document's root node, or nil when the document is empty (nothing, or only comments).
    static func read(_ text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        let events = LibYAMLEvents(text)
        var first = try events.next()
        guard first.type == YAML_STREAM_START_EVENT else { throw events.unexpected(first) }
        first = try events.next()
        if first.type == YAML_STREAM_END_EVENT { return nil }
        guard first.type == YAML_DOCUMENT_START_EVENT else { throw events.unexpected(first) }
        let root = try node(from: try events.next(), events: events, depth: 0)
        let end = try events.next()
        guard end.type == YAML_DOCUMENT_END_EVENT else { throw events.unexpected(end) }
        let after = try events.next()
        if after.type == YAML_DOCUMENT_START_EVENT {
            throw YAMLSyntaxError(mark: after.mark, message: "a config holds one YAML document; remove the second \"---\" and what follows it")
        }
        return root.isNull ? nil : root
    }

    private static func node(from event: LibYAMLEvents.Event, events: LibYAMLEvents,
                             depth: Int) throws(YAMLSyntaxError) -> YAMLNode {
        guard depth < maximumDepth else {
            throw YAMLSyntaxError(mark: event.mark, message: "nested more than \(maximumDepth) levels deep")
        }
        if event.type == YAML_ALIAS_EVENT || event.hasAnchor {
            throw YAMLSyntaxError(mark: event.mark, message: "anchors and aliases (&name, *name) are not supported; write the value out in full")
        }
        switch event.type {
        case YAML_SCALAR_EVENT:
            return YAMLNode(content: .scalar(YAMLScalar(text: event.value, isPlain: event.isPlain)), mark: event.mark)
        case YAML_SEQUENCE_START_EVENT:
            var items = [YAMLNode]()
            while true {
                let next = try events.next()
                if next.type == YAML_SEQUENCE_END_EVENT { break }
                items.append(try node(from: next, events: events, depth: depth + 1))
            }
            return YAMLNode(content: .sequence(items), mark: event.mark)
        case YAML_MAPPING_START_EVENT:
            var pairs = [YAMLPair]()
            while true {
                let next = try events.next()
                if next.type == YAML_MAPPING_END_EVENT { break }
                let key = try node(from: next, events: events, depth: depth + 1)
                let value = try node(from: try events.next(), events: events, depth: depth + 1)
                pairs.append(YAMLPair(key: key, value: value))
            }
            return YAMLNode(content: .mapping(pairs), mark: event.mark)
        default:
            throw events.unexpected(event)
        }
    }
}

/// Owns a libyaml parser and hands out its events as Swift values, freeing each C event at once.
private final class LibYAMLEvents {
    struct Event {
        var type: yaml_event_type_t
        var mark: SourceMark
        var value = ""
        var isPlain = false
        var hasAnchor = false
    }

    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    /// libyaml reads from this buffer until the parser is deleted, so it lives as long as we do.
    private let input: UnsafeMutableBufferPointer<UInt8>

    init(_ text: String) {
        input = .allocate(capacity: max(text.utf8.count, 1))
        _ = input.initialize(from: text.utf8)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, text.utf8.count)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    func next() throws(YAMLSyntaxError) -> Event {
        var raw = yaml_event_t()
        guard yaml_parser_parse(parser, &raw) == 1 else { throw syntaxError() }
        defer { yaml_event_delete(&raw) }
        var event = Event(type: raw.type, mark: SourceMark(raw.start_mark))
        switch raw.type {
        case YAML_SCALAR_EVENT:
            let s = raw.data.scalar
            event.value = s.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: s.length), as: UTF8.self) } ?? ""
            event.isPlain = s.style == YAML_PLAIN_SCALAR_STYLE
            event.hasAnchor = s.anchor != nil
        case YAML_SEQUENCE_START_EVENT:
            event.hasAnchor = raw.data.sequence_start.anchor != nil
        case YAML_MAPPING_START_EVENT:
            event.hasAnchor = raw.data.mapping_start.anchor != nil
        default:
            break
        }
        return event
    }

    func unexpected(_ event: Event) -> YAMLSyntaxError {
        YAMLSyntaxError(mark: event.mark, message: "unexpected YAML structure (event \(event.type.rawValue))")
    }

    /// libyaml's own words: "did not find expected key (while parsing a block mapping)".
    private func syntaxError() -> YAMLSyntaxError {
        let p = parser.pointee
        var message = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        if let context = p.context.map({ String(cString: $0) }) {
            let at = SourceMark(p.context_mark)
            message += " (\(context) that starts at \(at.line):\(at.column))"
            if context.contains("flow") {
                // `[{ path: ./out/{stem}.png }]`: braces inside a flow collection end it early.
                message += "; inside [ ] or { }, quote values that hold { } [ ] or commas, e.g. \"./out/{stem}.png\""
            }
        }
        return YAMLSyntaxError(mark: SourceMark(p.problem_mark), message: "YAML syntax: " + message)
    }
}

extension SourceMark {
    /// libyaml counts from 0.
    fileprivate init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}
