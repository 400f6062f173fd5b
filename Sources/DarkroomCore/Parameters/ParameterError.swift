/// A parameter value that does not fit its descriptor. The message says what was expected
/// and what was given, e.g. `expected an integer from 1 to 65535, got "wide"`.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
