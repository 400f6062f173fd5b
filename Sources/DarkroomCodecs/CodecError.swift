/// Why an image could not be read or written. `message` is meant for the user.
public struct CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable cause (used in JSON reports).
    public typealias Code = ErrorCode

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
