/// A parameter value as written by a user, before it is checked against a descriptor.
///
/// The config reader (YAML) and the `--chain` parser both produce these, so both share one
/// validation path and the same error messages.
public indirect enum RawValue: Hashable, Sendable, CustomStringConvertible {
    case scalar(String)
    case list([RawValue])
    /// Keys and values in the order written (a shape `{shape: rect, fill: red}`, a gradient stop).
    case mapping([RawField])

    public var description: String {
        switch self {
        case .scalar(let s): "\"\(s)\""
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .mapping(let fields): "{" + fields.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// One `key: value` of a ``RawValue/mapping(_:)``.
public struct RawField: Hashable, Sendable {
    public var key: String
    public var value: RawValue

    public init(_ key: String, _ value: RawValue) {
        self.key = key
        self.value = value
    }
}

/// A value the user gave for one parameter: fixed, drawn at random for each job, or a record
/// (or list of records) whose own fields may be either.
package enum Argument: Hashable, Sendable {
    case value(ParameterValue)
    case random
    /// A ``ParameterKind/records(_:)`` value: one list of fields per record.
    case records([[NamedArgument]])
    /// A ``ParameterKind/record(_:)`` value.
    case record([NamedArgument])
    /// A ``ParameterKind/chain`` value: its steps, each checked like a chain's.
    case chain([FilterInvocation])

    /// Whether this value, or a field or step inside it, is drawn at random.
    var drawsRandom: Bool {
        switch self {
        case .random: true
        case .value: false
        case .records(let items): items.contains { $0.contains { $0.argument.drawsRandom } }
        case .record(let fields): fields.contains { $0.argument.drawsRandom }
        case .chain(let steps): steps.contains { $0.arguments.contains { $0.argument.drawsRandom } }
        }
    }

    /// The texts given in this value and inside it (captions, to look for placeholders).
    var texts: [String] {
        switch self {
        case .value(.text(let s)): [s]
        case .value, .random: []
        case .records(let items): items.flatMap { $0.flatMap(\.argument.texts) }
        case .record(let fields): fields.flatMap(\.argument.texts)
        case .chain(let steps): steps.flatMap { $0.arguments.flatMap(\.argument.texts) }
        }
    }
}

/// One field of a record argument.
package struct NamedArgument: Hashable, Sendable {
    var name: String
    var argument: Argument

    init(_ name: String, _ argument: Argument) {
        self.name = name
        self.argument = argument
    }
}
