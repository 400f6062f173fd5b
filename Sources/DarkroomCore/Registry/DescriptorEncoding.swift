/// JSON form of the parameter descriptors (`darkroom filters --json`): the kind is written as its
/// name, with the choices beside it. Field names are snake_case and stable: scripts read them.
extension ParameterDescriptor: Encodable {
    private enum Keys: String, CodingKey {
        case name, kind, choices, description, defaultValue = "default", minimum, maximum
        case sliderMinimum = "slider_minimum", sliderMaximum = "slider_maximum", identity, unit, required
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
        default: try c.encode(description)
        }
    }
}
