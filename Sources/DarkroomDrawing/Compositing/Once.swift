import Foundation

/// Values computed once, on first use, by whichever render thread needs them first (an SVG
/// rendered at its drawn size, an image's ARGB32 copy for cairo), then shared read-only. One
/// lock around the table; the computation runs under it, so no value is ever computed twice.
final class Once<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values = [Key: Value]()

    init() {}

    func value(for key: Key, _ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let v = values[key] { return v }
        let v = make()
        values[key] = v
        return v
    }
}
