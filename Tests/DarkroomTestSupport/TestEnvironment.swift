import Foundation
#if canImport(XCTest)  // not when the package's products are built alone (make dist)
import XCTest
#endif

/// What a test needs from the machine (a tool, root, leases on the temporary folder).
///
/// A check that silently skips proves nothing, so under CI (`CI` set, as `.ci/run` does) a
/// missing need fails the test; only on a developer's machine does it skip, saying what to do.
public enum TestEnvironment {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether the tests run under CI, where nothing may be skipped.
    public static var isCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// The error to throw when `need` is not met: a failure under CI, a skip elsewhere.
    public static func unavailable(_ need: String) -> any Error {
        #if canImport(XCTest)
        if !isCI { return XCTSkip(need + "; with CI set this test fails instead of skipping") }
        #endif
        return Missing(description: need)
    }

    /// Throws ``unavailable(_:)`` unless `condition` holds.
    public static func require(_ condition: Bool, _ need: @autoclosure () -> String) throws {
        if !condition { throw unavailable(need()) }
    }
}
