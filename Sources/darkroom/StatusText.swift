import DarkroomDaemon
import Foundation

/// `darkroom status` as text: a headline that says whether the daemon runs, then a block per watch.
enum StatusText {
    /// A running daemon rewrites its state every second; older than this, it is probably stuck.
    static let staleSeconds = 30.0

    static func render(_ s: DaemonState, file: String, wasRunning: Bool, now: Date = Date()) -> String {
        var lines = [String]()
        let uptime = HumanFormat.duration(now.timeIntervalSince(s.started))
        if s.running {
            lines.append("darkroom \(s.darkroomVersion) is running (pid \(s.pid)), up \(uptime) since \(HumanFormat.time(s.started))")
            let age = now.timeIntervalSince(s.updated)
            if age > staleSeconds {
                lines.append("WARNING: its state was last written \(HumanFormat.duration(age)) ago (it writes every second): the daemon may be stuck; see `journalctl -u darkroom`")
            }
        } else if wasRunning {
            lines.append("darkroom is NOT running: pid \(s.pid) is gone without a clean stop (crashed or killed); state last written \(HumanFormat.time(s.updated)). See `journalctl -u darkroom` or its log.")
        } else {
            lines.append("darkroom is NOT running: it stopped cleanly at \(HumanFormat.time(s.updated)). Below: what it had done then.")
        }
        let reloads = "reloads: \(s.config.reloads["success"] ?? 0) ok, \(s.config.reloads["failure"] ?? 0) failed"
        lines.append("config \(s.config.path ?? "(built-in)"), sha256 \(s.config.sha256.prefix(12)), loaded \(HumanFormat.time(s.config.loaded)); \(reloads)")
        lines.append("\(s.workers) workers; state file \(file)")
        for w in s.watches {
            lines.append("")
            lines.append("\(w.name)  \(w.path)")
            var queue = "  queued \(w.queued), in flight \(w.inFlight.count)"
            if !w.inFlight.isEmpty { queue += ":" }
            lines.append(queue)
            for f in w.inFlight {
                lines.append("    \(HumanFormat.duration(now.timeIntervalSince(f.started)).padding(toLength: 12, withPad: " ", startingAt: 0)) \(f.path)")
            }
            lines.append("  last hour: \(HumanFormat.count(w.doneLastHour)) done, \(HumanFormat.count(w.failedLastHour)) failed;"
                + " last day: \(HumanFormat.count(w.doneLastDay)) done, \(HumanFormat.count(w.failedLastDay)) failed")
            lines.append("  last success: " + (w.lastSuccess.map { "\(HumanFormat.time($0)) (\(HumanFormat.ago($0, now: now)))" } ?? "none yet"))
            if let e = w.lastError {
                lines.append("  last error:   \(HumanFormat.time(e.time)) \(e.file): \(e.code): \(e.message)")
            } else {
                lines.append("  last error:   none")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
