import Foundation

extension ParameterDescriptor {
    /// Checks a user-written value against this parameter and returns it parsed.
    /// `random` is accepted for numeric kinds that have a range to draw from (lengths always:
    /// without a slider they are drawn as a share of the image) and for colours.
    /// A sub-chain's steps are checked against `context`'s registry (see ``parseChain(_:in:)``).
    package func parse(_ raw: RawValue, in context: ChainContext = ChainContext()) throws(ParameterError) -> Argument {
        switch kind {
        case .chain:
            return try parseChain(raw, in: context)
        case .records(let fields):
            guard case .list(let items) = raw else { throw fail(raw) }
            var records = [[NamedArgument]]()
            for (i, item) in items.enumerated() {
                do { records.append(try Self.parseRecord(item, fields: fields, expectation: recordExpectation(fields))) } catch {
                    throw error.inside(.index(i))
                }
            }
            return .records(records)
        case .record(let fields):
            return .record(try Self.parseRecord(raw, fields: fields, expectation: expectation))
        default: break
        }
        if case .scalar(let s) = raw, s.lowercased() == "random" {
            guard kind.isNumeric || kind == .color else {
                throw ParameterError("\(expectation), got \"random\" (random is for numbers and colours)")
            }
            guard kind == .color || kind == .length || randomRange != nil else {
                throw ParameterError("\(expectation), got \"random\" (this parameter has no range to draw from)")
            }
            return .random
        }
        let value = try parseValue(raw)
        try checkRange(value, raw: raw)
        return .value(value)
    }

    /// What the parameter expects, as the start of an error message.
    var expectation: String {
        let range = rangeText.isEmpty ? "" : " " + rangeText
        switch kind {
        case .scalar: return "expected a number\(range)"
        case .integer: return "expected an integer\(range)"
        case .angle: return "expected an angle in radians or with a deg suffix\(range.isEmpty ? "" : " (radians)" + range)"
        case .length: return "expected a length in px or %\(range)"
        case .point: return "expected a point [x, y] in px or %, or center, top_left, top_right, bottom_left, bottom_right"
        case .rect: return "expected a rectangle [x, y, width, height], each in px or %"
        case .lengths: return "expected a list of lengths, each in px or %"
        case .text: return "expected a text (quote one that starts with a placeholder: \"{stem}\")"
        case .boolean: return "expected true or false"
        case .color: return "expected a colour (#rrggbb, #rrggbbaa, [r, g, b, a], a CSS name or random)"
        case .choice(let options): return "expected one of " + options.joined(separator: ", ")
        case .numbers: return "expected a list of numbers"
        // The formats are the codecs' (`darkroom formats` lists them), a module this one does not see.
        case .image: return "expected the path of an image file (any format `darkroom formats` lists)"
        case .dataFile: return "expected the path of a file"
        case .graphic: return "expected the path of an image file (any format `darkroom formats` lists; an SVG is drawn as a vector)"
        case .records(let fields): return "expected a list of mappings of " + fields.map(\.name).joined(separator: ", ")
        case .record(let fields): return recordExpectation(fields)
        case .chain: return "expected a list of filters (- name or - name: { parameter: value }), as a chain is written"
        case .matrix: return "expected a square matrix: rows of equal length like [[0, 1, 0], [1, 1, 1], [0, 1, 0]], or a flat list of n² numbers"
        }
    }

    /// "expected a mapping of shape, fill, stroke…"
    private func recordExpectation(_ fields: [ParameterDescriptor]) -> String {
        "expected a mapping of " + fields.map(\.name).joined(separator: ", ")
    }

    /// One record's fields, each checked against its descriptor; required ones must be there.
    private static func parseRecord(_ raw: RawValue, fields: [ParameterDescriptor],
                                    expectation: String) throws(ParameterError) -> [NamedArgument] {
        guard case .mapping(let written) = raw else { throw ParameterError("\(expectation), got \(raw)") }
        var arguments = [NamedArgument]()
        for field in written {
            guard let descriptor = fields.first(where: { $0.name == field.key }) else {
                throw ParameterError("unknown key \"\(field.key)\"" + suggestionText(field.key, among: fields.map(\.name)),
                                     at: [.key(field.key)])
            }
            guard !arguments.contains(where: { $0.name == field.key }) else {
                throw ParameterError("given twice", at: [.key(field.key)])
            }
            do { arguments.append(NamedArgument(field.key, try descriptor.parse(field.value))) } catch {
                throw error.inside(.key(field.key))
            }
        }
        for descriptor in fields where descriptor.isRequired && !arguments.contains(where: { $0.name == descriptor.name }) {
            throw ParameterError("needs \(descriptor.name) (\(descriptor.description))")
        }
        return arguments
    }

    func fail(_ raw: RawValue) -> ParameterError {
        ParameterError("\(expectation), got \(raw)")
    }

    private func parseValue(_ raw: RawValue) throws(ParameterError) -> ParameterValue {
        switch kind {
        case .records, .record, .chain:
            preconditionFailure("records and chains are parsed by parse(_:in:)")
        case .image, .dataFile, .graphic:
            guard case .scalar(let s) = raw, !s.trimmed.isEmpty else { throw fail(raw) }
            return .file(s.trimmed)
        case .scalar:
            guard case .scalar(let s) = raw, let v = Double(s.trimmed), v.isFinite else { throw fail(raw) }
            return .number(v)
        case .integer:
            guard case .scalar(let s) = raw, let v = Int(s.trimmed) else { throw fail(raw) }
            return .number(Double(v))
        case .angle:
            guard case .scalar(let s) = raw, let v = parseAngle(s) else { throw fail(raw) }
            return .number(v)
        case .length:
            guard case .scalar(let s) = raw, let l = parseLength(s) else { throw fail(raw) }
            return .length(l)
        case .point:
            if case .scalar(let s) = raw, let (x, y) = namedPoints[s.trimmed.lowercased()] {
                return .point(Length(x, percent: true), Length(y, percent: true))
            }
            guard case .list(let items) = raw, items.count == 2,
                  case .scalar(let xs) = items[0], case .scalar(let ys) = items[1],
                  let x = parseLength(xs), let y = parseLength(ys) else { throw fail(raw) }
            return .point(x, y)
        case .rect:
            guard case .list(let items) = raw, items.count == 4 else { throw fail(raw) }
            var lengths = [Length]()
            for case .scalar(let s) in items {
                guard let l = parseLength(s) else { throw fail(raw) }
                lengths.append(l)
            }
            guard lengths.count == 4, lengths[2].value >= 0, lengths[3].value >= 0 else { throw fail(raw) }
            return .lengths(lengths)
        case .lengths:
            let items: [RawValue]
            if case .list(let l) = raw { items = l } else { items = [raw] }
            var lengths = [Length]()
            for item in items {
                guard case .scalar(let s) = item, let l = parseLength(s) else { throw fail(raw) }
                lengths.append(l)
            }
            guard !lengths.isEmpty else { throw fail(raw) }
            return .lengths(lengths)
        case .text:
            guard case .scalar(let s) = raw else { throw fail(raw) }
            try InputFacts.check(s)
            return .text(s)
        case .boolean:
            guard case .scalar(let s) = raw else { throw fail(raw) }
            switch s.trimmed.lowercased() {
            case "true", "yes", "on": return .bool(true)
            case "false", "no", "off": return .bool(false)
            default: throw fail(raw)
            }
        case .color:
            guard let c = ColorParser.parse(raw) else { throw fail(raw) }
            return .color(c)
        case .choice(let options):
            guard case .scalar(let s) = raw else { throw fail(raw) }
            let word = s.trimmed.lowercased().replacingOccurrences(of: "-", with: "_")
            guard options.contains(word) else { throw fail(raw) }
            return .choice(word)
        case .numbers:
            let items: [RawValue]
            if case .list(let l) = raw { items = l } else { items = [raw] }
            guard let values = numbers(in: items), !values.isEmpty else { throw fail(raw) }
            return .numbers(values)
        case .matrix:
            guard case .list(let items) = raw, !items.isEmpty else { throw fail(raw) }
            var values = [Double]()
            if items.allSatisfy({ if case .list = $0 { true } else { false } }) {
                for case .list(let row) in items {
                    guard row.count == items.count, let v = numbers(in: row) else { throw fail(raw) }
                    values += v
                }
            } else {
                guard let v = numbers(in: items) else { throw fail(raw) }
                values = v
            }
            let n = Int(Double(values.count).squareRoot().rounded())
            guard n * n == values.count else { throw fail(raw) }
            return .numbers(values)
        }
    }

    /// The finite numbers in `items`, or nil when any item is not one.
    private func numbers(in items: [RawValue]) -> [Double]? {
        var values = [Double]()
        for item in items {
            guard case .scalar(let s) = item, let v = Double(s.trimmed), v.isFinite else { return nil }
            values.append(v)
        }
        return values
    }

    private func checkRange(_ value: ParameterValue, raw: RawValue) throws(ParameterError) {
        let v: Double
        switch value {
        case .number(let n): v = n
        case .length(let l) where !l.isPercent: v = l.value
        default: return
        }
        if let lo = minimum, v < lo { throw fail(raw) }
        if let hi = maximum, v > hi { throw fail(raw) }
    }
}

/// Points that may be given by name, as percentages of the width and height.
let namedPoints: [String: (Double, Double)] = [
    "center": (50, 50), "top_left": (0, 0), "top_right": (100, 0),
    "bottom_left": (0, 100), "bottom_right": (100, 100),
]

/// `-45deg`, `0.5`, `90°`, `1.2rad` → radians.
func parseAngle(_ text: String) -> Double? {
    var s = text.trimmed.lowercased()
    var factor = 1.0
    for (suffix, f) in [("deg", Double.pi / 180), ("°", Double.pi / 180), ("rad", 1.0)] where s.hasSuffix(suffix) {
        s = String(s.dropLast(suffix.count)).trimmed
        factor = f
        break
    }
    guard let v = Double(s), v.isFinite else { return nil }
    return v * factor
}

/// `12`, `12px`, `-50%` → a length.
func parseLength(_ text: String) -> Length? {
    var s = text.trimmed.lowercased()
    var percent = false
    if s.hasSuffix("%") { s.removeLast(); percent = true } else if s.hasSuffix("px") { s.removeLast(2) }
    guard let v = Double(s.trimmed), v.isFinite else { return nil }
    return Length(v, percent: percent)
}

extension String {
    /// Without leading and trailing blanks (spaces, tabs and the other Unicode space
    /// separators): `trimmingCharacters(in: .whitespaces)` in plain Swift, which the parsers call
    /// for every value of a chain (Foundation's goes through NSString, a bridge per value, which
    /// a `draw` of many shapes notices).
    var trimmed: String {
        func blank(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s.properties.generalCategory == .spaceSeparator }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !blank($0) })!
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }
}
