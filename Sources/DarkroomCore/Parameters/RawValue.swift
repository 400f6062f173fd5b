/// A parameter value as written by a user, before it is checked against a descriptor.
///
/// The config reader (YAML) and the `--chain` parser both produce these, so both share one
/// validation path and the same error messages.
public indirect enum RawValue: Hashable, Sendable, CustomStringConvertible {
    case scalar(String)
    case list([RawValue])

    public var description: String {
        switch self {
        case .scalar(let s): "\"\(s)\""
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// A value the user gave for one parameter: fixed, or drawn at random for each job.
public enum Argument: Hashable, Sendable {
    case value(ParameterValue)
    case random
}
