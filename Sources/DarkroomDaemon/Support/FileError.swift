import Glibc

/// A failed file-system call, with the path and the system's own words for the cause
/// (`cannot write /out/a.jpg: No space left on device`).
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// What was being done: `read`, `write`, `move`, `create folder for`, …
    public var operation: String
    public var errno: Int32

    public init(_ operation: String, _ path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The error as the C library names it: `No space left on device`.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String { "cannot \(operation) \(RawName.display(path)): \(reason)" }
}
