import DarkroomDaemon
import Foundation

/// `darkroom cluster status` (and the cluster block of `darkroom status`) as text.
enum ClusterStatusText {
    static func render(_ s: ClusterSnapshot, lease: Double) -> String {
        var lines = ["cluster schema version \(s.schemaVersion); \(s.nodes.count) node(s)"]
        for n in s.nodes {
            let state: String
            if let stopped = n.stopped {
                state = "stopped at \(HumanFormat.time(stopped))"
            } else if n.secondsSinceHeartbeat > lease {
                state = "SILENT: last heartbeat \(HumanFormat.duration(n.secondsSinceHeartbeat)) ago (dead or cut off; its jobs return to the queue as their leases expire)"
            } else {
                state = "alive, last heartbeat \(HumanFormat.duration(n.secondsSinceHeartbeat)) ago"
            }
            lines.append("  \(n.name) (\(n.host), pid \(n.pid), \(n.version), \(n.workers) workers): \(state); "
                + "\(n.inFlight) in flight, \(HumanFormat.count(n.processed)) processed, \(HumanFormat.count(n.failed)) failed since it started")
        }
        if s.watches.isEmpty { lines.append("no jobs yet") }
        for w in s.watches {
            lines.append("watch \(w.name): \(HumanFormat.count(w.queued)) queued, \(w.running) in flight, "
                + "\(HumanFormat.count(w.done)) done (\(HumanFormat.count(w.failed)) failed) still in the table")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
