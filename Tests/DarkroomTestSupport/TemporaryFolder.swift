import Foundation

/// A fresh folder under /tmp for one test, removed with everything in it when released.
/// Shared by every test target (test targets cannot import each other).
public final class TemporaryFolder {
    public let path: String

    /// Creates `/tmp/<prefix>-XXXXXX` with a unique suffix.
    public init(prefix: String = "darkroom-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(String(cString: strerror(errno)))")
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `relative` inside the folder.
    public func file(_ relative: String) -> String { path + "/" + relative }
}
