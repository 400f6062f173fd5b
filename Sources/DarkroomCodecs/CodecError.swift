/// Why an image could not be read or written. `message` is meant for the user.
public struct CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable cause (used in JSON reports).
    public enum Code: String, Sendable, Codable {
        case notAnImage = "not_an_image"
        case corrupt
        case truncated
        case unsupported
        case tooLarge = "too_large"
        case io
        case encodeFailed = "encode_failed"
        /// Decoding ran past the job's time limit (`limits.max_seconds`).
        case timeout
        /// A graphic, SVG document or text block of the chain could not be drawn.
        case drawFailed = "draw_failed"
        /// The output's file refused the bytes an encoder wrote into it (a full disk); the
        /// message is the system's reason.
        case writeFailed = "write_failed"
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
