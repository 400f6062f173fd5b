/// JSON form of the parameter descriptors (`darkroom filters --json`): the kind is written as its
/// name, with the choices beside it. Field names are snake_case and stable: scripts read them.
extension ParameterDescriptor: Encodable {
    private enum Keys: String, CodingKey {
        case name, kind, choices, description, defaultValue = "default", minimum, maximum
        case sliderMinimum = "slider_minimum", sliderMaximum = "slider_maximum", identity, unit, required, fields
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(name, forKey: .name)
        try c.encode(kind.name, forKey: .kind)
        if case .choice(let options) = kind { try c.encode(options, forKey: .choices) }
        try c.encode(description, forKey: .description)
        try c.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try c.encodeIfPresent(minimum, forKey: .minimum)
        try c.encodeIfPresent(maximum, forKey: .maximum)
        try c.encodeIfPresent(sliderMinimum, forKey: .sliderMinimum)
        try c.encodeIfPresent(sliderMaximum, forKey: .sliderMaximum)
        try c.encodeIfPresent(identity, forKey: .identity)
        try c.encodeIfPresent(unit, forKey: .unit)
        try c.encode(isRequired, forKey: .required)
        try c.encodeIfPresent(kind.fields, forKey: .fields)
    }
}

extension ParameterValue: Encodable {
    /// Numbers and booleans as JSON numbers and booleans, lists as arrays, everything else as
    /// the text a user would write in a config (`50%`, `#000000ff`, `inside`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let v): try c.encode(v)
        case .bool(let b): try c.encode(b)
        case .numbers(let v): try c.encode(v)
        case .lengths(let v): try c.encode(v.map(\.description))
        case .length(let l) where !l.isPercent: try c.encode(l.value)
        case .point(let x, let y): try c.encode([x.description, y.description])
        case .records(let items): try c.encode(items.map(RecordJSON.init))
        case .record(let fields): try c.encode(RecordJSON(fields))
        case .chain(let steps): try c.encode(steps.map(StepJSON.init))
        default: try c.encode(description)
        }
    }
}

/// A record as a JSON object of its fields.
private struct RecordJSON: Encodable {
    let fields: ResolvedParameters
    init(_ fields: ResolvedParameters) { self.fields = fields }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in fields.entries { try c.encode(value, forKey: AnyKey(name)) }
    }
}

/// A sub-chain's step as a config writes it: `{"sepia": {"intensity": 0.8}}`.
private struct StepJSON: Encodable {
    let step: ResolvedFilter
    init(_ step: ResolvedFilter) { self.step = step }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(RecordJSON(step.parameters), forKey: AnyKey(step.name))
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
