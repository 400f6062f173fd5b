import DarkroomConfig
import Foundation

/// One settled input handed to a worker, with everything the worker needs as values (the
/// config may be reloaded while it runs; the job keeps the one it was queued under).
struct DaemonJob: Sendable {
    var path: String
    /// Below the watched folder; names the report and the done/failed destinations.
    var relative: String
    var layout: WatchLayout
    var limits: Limits
    var configSHA256: String
    var queuedAt: Date
}

/// Counters for systemd's `STATUS=` line and the shutdown summary.
struct DaemonStats: Sendable {
    var processed = 0
    var failed = 0
    /// Inputs found already processed (a report with the same SHA-256) and only tidied away.
    var alreadyDone = 0
}
