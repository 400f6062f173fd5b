/// A parameter value that does not fit its descriptor. The message says what was expected
/// and what was given, e.g. `expected an integer from 1 to 65535, got "wide"`.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// Where inside the value the problem is, outermost first (`[2]`, `radius` for the third
    /// shape's radius); empty when it is about the value as a whole. The config reader follows
    /// it to the line and column of the offending node.
    public var location: [ValuePathStep]

    public init(_ message: String, at location: [ValuePathStep] = []) {
        self.message = message
        self.location = location
    }

    /// The same error, `step` further out.
    public func inside(_ step: ValuePathStep) -> ParameterError {
        ParameterError(message, at: [step] + location)
    }

    /// `[2].radius`, or "" for the whole value.
    public var locationText: String { location.map(\.text).joined() }

    public var description: String { locationText.isEmpty ? message : "\(locationText.drop { $0 == "." }): \(message)" }
}

/// One step into a value: an item of a list or a key of a mapping.
public enum ValuePathStep: Hashable, Sendable {
    case index(Int)
    case key(String)

    /// `[2]` or `.radius`.
    var text: String {
        switch self {
        case .index(let i): "[\(i)]"
        case .key(let k): ".\(k)"
        }
    }
}
