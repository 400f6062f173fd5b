/// Holds files that were announced (closed after writing, moved in, or found by a scan) until
/// they have settled (``Settling``: the same ``FileStamp`` for the watch's settle time), so a
/// file still being written by a slow or bursty writer is not taken half-done.
///
/// Bounded: at `capacity` it refuses new files and the caller falls back to a rescan later.
/// Not thread-safe; the ``Intake``'s queue owns it.
public struct SettleTracker: Sendable {
    public let capacity: Int
    private var entries: [String: Entry] = [:]
    private var sequence = 0

    private struct Entry: Sendable {
        var settling: Settling
        var settleNanoseconds: UInt64
        var order: Int
    }

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public func contains(_ path: String) -> Bool { entries[path] != nil }

    /// Starts (or continues) watching `path` as seen now. Returns false when the tracker is
    /// full and the file was not taken.
    public mutating func observe(_ path: String, status: FileStatus, settleMilliseconds: Int, now: UInt64) -> Bool {
        if var entry = entries[path] {
            entry.settling.announce(status.stamp, now: now)
            entries[path] = entry
            return true
        }
        guard entries.count < capacity else { return false }
        sequence += 1
        entries[path] = Entry(settling: Settling(status.stamp, now: now),
                              settleNanoseconds: UInt64(max(0, settleMilliseconds)) * 1_000_000, order: sequence)
        return true
    }

    /// Files unchanged for their settle time, oldest announcement first, at most `limit` of
    /// them; they leave the tracker (the others wait for the next call). A file that changed
    /// starts its wait again; a file that vanished, or is no longer a regular file, is dropped.
    public mutating func settled(now: UInt64, limit: Int = .max, status: (String) -> FileStatus?) -> [String] {
        var ready = [(order: Int, path: String)]()
        for (path, var entry) in entries {
            guard let current = status(path), current.isRegularFile else {
                entries[path] = nil
                continue
            }
            if entry.settling.look(current.stamp, now: now, settleNanoseconds: entry.settleNanoseconds) {
                ready.append((entry.order, path))
            } else {
                entries[path] = entry
            }
        }
        let taken = ready.sorted { $0.order < $1.order }.prefix(max(0, limit)).map(\.path)
        for path in taken { entries[path] = nil }
        return taken
    }
}
