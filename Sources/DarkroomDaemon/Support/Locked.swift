import Foundation

/// A value that several threads share, reachable only while holding its lock.
///
/// Every piece of mutable state the daemon shares between its watcher thread, its workers and
/// its signal queue sits in one of these, so the locking discipline is visible at each use.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    public var current: Value { withLock { $0 } }
}
