import Foundation

/// The cluster as the database shows it: nodes, queue depth per watch, jobs in flight per node
/// and failures. Read by `darkroom status` and, every few seconds, by each node for its
/// metrics and state file.
public struct ClusterSnapshot: Sendable, Equatable {
    public struct Node: Sendable, Equatable {
        public var name: String
        public var host: String
        public var pid: Int32
        public var version: String
        public var workers: Int
        public var started: Date
        /// Seconds since its last heartbeat, by the database's clock.
        public var secondsSinceHeartbeat: Double
        /// Set when it stopped cleanly.
        public var stopped: Date?
        public var inFlight: Int
        public var processed: Int
        public var failed: Int
    }

    public struct Watch: Sendable, Equatable {
        public var name: String
        /// Queued and due or waiting for a retry.
        public var queued: Int
        public var running: Int
        /// Finished with status `failed` (still in the table, not yet pruned).
        public var failed: Int
        public var done: Int
    }

    public var schemaVersion: Int
    public var nodes: [Node]
    public var watches: [Watch]

    /// Reads it all in one transaction (a consistent picture).
    public static func read(_ db: PGConnection) throws(PGError) -> ClusterSnapshot {
        try db.transaction { db throws(PGError) in
            try db.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let version = try ClusterSchema.version(db)
            let nodes = try db.query("""
                SELECT n.name, n.host, n.pid, n.version, n.workers, extract(epoch FROM n.started_at),
                       extract(epoch FROM now() - n.heartbeat_at), extract(epoch FROM n.stopped_at),
                       (SELECT count(*) FROM darkroom_jobs j WHERE j.state = 'running' AND j.node = n.name AND j.lease_until > now()),
                       n.processed, n.failed
                FROM darkroom_nodes n ORDER BY n.name
                """).rows.map { r in
                Node(name: r[0] ?? "", host: r[1] ?? "", pid: Int32(r[2] ?? "") ?? 0, version: r[3] ?? "",
                     workers: Int(r[4] ?? "") ?? 0, started: Date(timeIntervalSince1970: Double(r[5] ?? "") ?? 0),
                     secondsSinceHeartbeat: Double(r[6] ?? "") ?? 0,
                     stopped: r[7].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) },
                     inFlight: Int(r[8] ?? "") ?? 0, processed: Int(r[9] ?? "") ?? 0, failed: Int(r[10] ?? "") ?? 0)
            }
            let watches = try db.query("""
                SELECT watch,
                       count(*) FILTER (WHERE state = 'queued' OR (state = 'running' AND lease_until <= now())),
                       count(*) FILTER (WHERE state = 'running' AND lease_until > now()),
                       count(*) FILTER (WHERE state = 'done' AND status = 'failed'),
                       count(*) FILTER (WHERE state = 'done')
                FROM darkroom_jobs GROUP BY watch ORDER BY watch
                """).rows.map { r in
                Watch(name: r[0] ?? "", queued: Int(r[1] ?? "") ?? 0, running: Int(r[2] ?? "") ?? 0,
                      failed: Int(r[3] ?? "") ?? 0, done: Int(r[4] ?? "") ?? 0)
            }
            return ClusterSnapshot(schemaVersion: version, nodes: nodes, watches: watches)
        }
    }

    /// The queue depth of each watch (what the node's state file and metrics call queued).
    public var queuedByWatch: [String: Int] { Dictionary(uniqueKeysWithValues: watches.map { ($0.name, $0.queued) }) }
}
