import DarkroomCore

/// A parameter value as the report writes it: JSON numbers for numbers (lengths in pixels),
/// strings for angles (`-45deg`), choices, colours (`#rrggbbaa`) and percentages (`12.5%`),
/// arrays for points and number lists. Every value can be pasted back into a config or a
/// `--chain` to reproduce the output: an angle written as a bare number would read as radians.
public enum ReportValue: Codable, Sendable, Equatable {
    case number(Double)
    case bool(Bool)
    case string(String)
    case array([ReportValue])
    /// A record (a shape, a gradient stop), keyed by its fields' names.
    case object([String: ReportValue])

    /// The report form of a resolved value; `kind` tells angles (stored in radians) apart.
    public init(_ value: ParameterValue, kind: ParameterKind?) {
        switch value {
        case .number(let v): self = kind == .angle ? .string(Self.degrees(v)) : .number(v)
        case .length(let l): self = ReportValue(l)
        case .point(let x, let y): self = .array([ReportValue(x), ReportValue(y)])
        case .bool(let b): self = .bool(b)
        case .color(let c): self = .string(c.description)
        case .choice(let s), .file(let s), .text(let s): self = .string(s)
        case .numbers(let v): self = .array(v.map(ReportValue.number))
        case .lengths(let v): self = .array(v.map(ReportValue.init))
        case .records(let items): self = .array(items.map { ReportValue(record: $0, kind: kind) })
        case .record(let fields): self = ReportValue(record: fields, kind: kind)
        // As a config writes a chain: `[{"sepia": {"intensity": 0.8}}]`, so it pastes back.
        case .chain(let steps): self = .array(steps.map { .object([$0.name: ReportValue(parametersOf: $0)]) })
        }
    }

    /// A filter's parameters, each in its report form (its descriptor tells angles apart).
    init(parametersOf filter: ResolvedFilter) {
        var object = [String: ReportValue]()
        for (name, value) in filter.parameters.entries {
            object[name] = ReportValue(value, kind: filter.descriptor.parameter(named: name)?.kind)
        }
        self = .object(object)
    }

    /// A record's fields, each in its report form (angles in degrees, as for a filter's own).
    private init(record: ResolvedParameters, kind: ParameterKind?) {
        var object = [String: ReportValue]()
        for (name, value) in record.entries {
            object[name] = ReportValue(value, kind: kind?.fields?.first { $0.name == name }?.kind)
        }
        self = .object(object)
    }

    /// `-45deg`, `12.5deg`: shortest text that reads back as the same number of degrees.
    static func degrees(_ radians: Double) -> String {
        let d = radians * 180 / .pi
        return (d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)) + "deg"
    }

    private init(_ length: Length) {
        self = length.isPercent ? .string(length.description) : .number(length.value)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let o = try? c.decode([String: ReportValue].self) { self = .object(o) }
        else { self = .array(try c.decode([ReportValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let v): try c.encode(v)
        case .bool(let b): try c.encode(b)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
