import Foundation

/// Values computed once, on first use, by whichever render thread needs them first (an SVG
/// rendered at its drawn size, an image's ARGB32 copy for cairo), then shared read-only. One
/// lock around the table; the computation runs under it, so no value is ever computed twice
/// while it is kept.
///
/// Only the `capacity` most recently asked-for keys are kept: a filter lives as long as the
/// config, and its rasters are keyed by the size they are drawn at, which follows each input's
/// size; keeping every one would grow the daemon's memory with every new size it meets. A job
/// holds the value it was handed for as long as it renders, whatever is dropped here.
final class Once<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private var values = [Key: Value]()
    private var recent = [Key]()  // least recent first

    /// - Parameter capacity: keys kept; two lets the jobs of two workers on different sizes
    ///   keep theirs.
    init(capacity: Int = 2) {
        self.capacity = max(1, capacity)
    }

    func value(for key: Key, _ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let i = recent.firstIndex(of: key) { recent.remove(at: i) }
        recent.append(key)
        if let v = values[key] { return v }
        let v = make()
        values[key] = v
        while recent.count > capacity { values[recent.removeFirst()] = nil }
        return v
    }

    /// Keys kept now.
    var count: Int { lock.withLock { values.count } }
}
