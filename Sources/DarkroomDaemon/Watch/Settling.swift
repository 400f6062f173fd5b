/// The one settle rule, for files announced by inotify (``SettleTracker``) and for files found
/// by a cluster's scans (``ClusterScanner``): a file is taken once a look at least its watch's
/// settle time after the stamp was first seen finds the same ``FileStamp`` — no one wrote to it,
/// renamed over it or touched it in between, from this machine or another. Any change starts
/// the wait again from the look that saw it.
struct Settling: Sendable {
    private(set) var stamp: FileStamp
    /// When `stamp` was first seen (monotonic nanoseconds).
    private(set) var since: UInt64

    /// A first sighting at `now`.
    init(_ stamp: FileStamp, now: UInt64) {
        self.stamp = stamp
        since = now
    }

    /// Another look at `now`; true when the file has settled. A changed stamp starts the wait again.
    mutating func look(_ current: FileStamp, now: UInt64, settleNanoseconds: UInt64) -> Bool {
        guard current == stamp else {
            self = Settling(current, now: now)
            return false
        }
        return now >= since && now - since >= settleNanoseconds
    }

    /// A new announcement of the file (an event, a rescan): the wait starts again only if it changed.
    mutating func announce(_ current: FileStamp, now: UInt64) {
        if current != stamp { self = Settling(current, now: now) }
    }
}
