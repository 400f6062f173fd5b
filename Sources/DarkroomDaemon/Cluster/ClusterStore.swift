import Foundation

/// A job as a worker claimed it: which file (as the ingesting node saw it), and the fencing
/// token that proves the claim is still this worker's.
struct ClaimedJob: Sendable, Equatable {
    var id: Int64
    var watch: String
    /// Below the watched folder (nodes may mount the share at different places).
    var relative: String
    var stamp: FileStamp
    var token: Int64
    /// Including this one.
    var attempts: Int
    var queuedAt: Date
    /// What went wrong at the previous attempt, if one did.
    var lastError: String?
}

/// The statements of cluster mode, each one round trip; times are the database's (`now()`),
/// never a node's clock.
enum ClusterStore {
    /// Readies a worker's connection: it listens for new jobs, and its commits do not wait for
    /// the WAL to reach disk (`synchronous_commit = off`). That is safe here because the shared
    /// folder, not the table, holds the truth: a claim a database crash forgets sends the job
    /// back to its previous state (the worker's next renewal finds another token and stops
    /// before publishing), and a forgotten ack leaves a lease that expires, after which the
    /// next claimer finds the report and only records it. The scanner's inserts stay durable.
    static func prepareWorkerSession(_ db: PGConnection) throws(PGError) {
        try db.listen(ClusterSchema.channel)
        try db.query("SET synchronous_commit = off")
    }

    /// Claims the oldest job that is queued and due, or whose lease expired, in one statement:
    /// `FOR UPDATE SKIP LOCKED` lets concurrent claimers pass each other's rows instead of
    /// waiting, and the `UPDATE … RETURNING` makes the claim and its new token one atomic step.
    static func claim(_ db: PGConnection, node: String, leaseSeconds: Double) throws(PGError) -> ClaimedJob? {
        let rows = try db.query("""
            WITH next AS (
                SELECT id FROM darkroom_jobs
                WHERE state <> 'done'
                  AND CASE state WHEN 'queued' THEN not_before <= now() ELSE lease_until < now() END
                ORDER BY id LIMIT 1
                FOR UPDATE SKIP LOCKED)
            UPDATE darkroom_jobs j
            SET state = 'running', node = $1, token = nextval('darkroom_fence'),
                lease_until = now() + make_interval(secs => $2::float8), attempts = j.attempts + 1, started_at = now()
            FROM next WHERE j.id = next.id
            RETURNING j.id, j.watch, j.path, j.size, j.mtime_ns, j.inode, j.token, j.attempts,
                      extract(epoch FROM j.queued_at), j.error
            """, [node, String(leaseSeconds)])
        guard let r = rows.rows.first else { return nil }
        func int(_ i: Int) -> Int64 { Int64(r[i] ?? "") ?? 0 }
        return ClaimedJob(id: int(0), watch: r[1] ?? "", relative: r[2] ?? "",
                          stamp: FileStamp(size: int(3), modifiedNanoseconds: int(4), inode: int(5)),
                          token: int(6), attempts: Int(int(7)), queuedAt: Date(timeIntervalSince1970: Double(r[8] ?? "") ?? 0),
                          lastError: r[9])
    }

    /// Extends a lease if the token is still the job's; false means another node holds it now
    /// (or it was finished), and this one must publish nothing more.
    static func renew(_ db: PGConnection, _ job: ClaimedJob, leaseSeconds: Double) throws(PGError) -> Bool {
        try db.query("""
            UPDATE darkroom_jobs SET lease_until = now() + make_interval(secs => $3::float8)
            WHERE id = $1 AND token = $2 AND state = 'running'
            """, [String(job.id), String(job.token), String(leaseSeconds)]).affected == 1
    }

    /// Marks the job done with `status` (the report's, or `gone`, `superseded`…), if the token
    /// is still the job's; false: another node had taken it over.
    static func finish(_ db: PGConnection, _ job: ClaimedJob, status: String, error: String?) throws(PGError) -> Bool {
        try db.query("""
            UPDATE darkroom_jobs SET state = 'done', status = $3, error = $4, finished_at = now(), lease_until = NULL
            WHERE id = $1 AND token = $2 AND state = 'running'
            """, [String(job.id), String(job.token), status, error]).affected == 1
    }

    /// Puts the job back in the queue, due after `seconds`, if still ours. A transient error
    /// counts as an attempt; a file still being written (`counts: false`) does not.
    static func requeue(_ db: PGConnection, _ job: ClaimedJob, afterSeconds seconds: Double, error: String,
                        counts: Bool = true) throws(PGError) -> Bool {
        try db.query("""
            UPDATE darkroom_jobs SET state = 'queued', error = $3, lease_until = NULL,
                not_before = now() + make_interval(secs => $4::float8), attempts = attempts - $5::int
            WHERE id = $1 AND token = $2 AND state = 'running'
            """, [String(job.id), String(job.token), error, String(seconds), counts ? "0" : "1"]).affected == 1
    }

    /// Inserts the settled files of one watch; a file already known (same watch, path, size and
    /// modification time) is left alone. Returns how many were new; idle workers hear of them.
    static func insert(_ db: PGConnection, watch: String, files: [(relative: String, stamp: FileStamp)]) throws(PGError) -> Int {
        guard !files.isEmpty else { return 0 }
        let inserted = try db.query("""
            WITH new AS (
                INSERT INTO darkroom_jobs (watch, path, size, mtime_ns, inode)
                SELECT $1, p, s, m, i FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[]) AS t(p, s, m, i)
                ON CONFLICT (watch, path, size, mtime_ns) DO NOTHING
                RETURNING 1)
            SELECT count(*), pg_notify('\(ClusterSchema.channel)', '') FROM new HAVING count(*) > 0
            """, [watch, PGArray.text(files.map(\.relative)), PGArray.integers(files.map(\.stamp.size)),
                  PGArray.integers(files.map(\.stamp.modifiedNanoseconds)), PGArray.integers(files.map(\.stamp.inode))])
        return Int(inserted.scalar ?? "0") ?? 0
    }

    /// Says the node is alive (and registers it on its first call), with its counters.
    static func heartbeat(_ db: PGConnection, node: NodeRecord) throws(PGError) {
        try db.query("""
            INSERT INTO darkroom_nodes (name, host, pid, version, workers, processed, failed)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (name) DO UPDATE SET host = $2, pid = $3, version = $4, workers = $5, processed = $6, failed = $7,
                heartbeat_at = now(), stopped_at = NULL
            """, [node.name, node.host, String(node.pid), node.version, String(node.workers),
                  String(node.processed), String(node.failed)])
    }

    /// At a clean stop: `darkroom status` shows the node as stopped rather than silent.
    static func stopped(_ db: PGConnection, node: String) throws(PGError) {
        try db.query("UPDATE darkroom_nodes SET stopped_at = now() WHERE name = $1", [node])
    }

    /// Deletes finished jobs older than `days`, at most `batch` rows per statement (short
    /// transactions, no long lock), and nodes silent for as long; returns the jobs deleted.
    static func prune(_ db: PGConnection, keepDays: Int, batch: Int = 1000) throws(PGError) -> Int {
        var total = 0
        while true {
            let n = try db.query("""
                DELETE FROM darkroom_jobs WHERE id IN (
                    SELECT id FROM darkroom_jobs
                    WHERE state = 'done' AND finished_at < now() - make_interval(days => $1::int)
                    ORDER BY finished_at LIMIT $2)
                """, [String(keepDays), String(batch)]).affected
            total += n
            if n < batch { break }
        }
        // A node is deleted only long after its last heartbeat: a live node is never pruned
        // (and would register itself again at its next heartbeat anyway).
        try db.query("DELETE FROM darkroom_nodes WHERE heartbeat_at < now() - make_interval(days => greatest($1::int, 1))",
                     [String(keepDays)])
        return total
    }
}

/// What a node says of itself at each heartbeat.
struct NodeRecord: Sendable {
    var name: String
    var host: String
    var pid: Int32
    var version: String
    var workers: Int
    var processed: Int
    var failed: Int
}

/// PostgreSQL array literals for `unnest($n::text[])`: one parameter for a whole batch.
enum PGArray {
    static func text(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }

    static func integers(_ values: [Int64]) -> String { "{" + values.map(String.init).joined(separator: ",") + "}" }
}
