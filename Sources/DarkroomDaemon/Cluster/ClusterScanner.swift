import DarkroomConfig
import Foundation
import Logging

/// Discovery on a shared folder: inotify does not see files written by other machines, so in
/// cluster mode each watched folder is scanned every `scan_interval`, and a file is inserted
/// into the job table once it has settled (``Settling``: two scans at least `settle_ms` apart saw
/// the same ``FileStamp``; a writer on any machine changes it).
///
/// One node at a time scans each watch: the one holding the session-level advisory lock
/// `pg_try_advisory_lock(lockClass, hashtext('ingest:' || watch))`. PostgreSQL releases it when
/// that node's connection ends — the process died, its machine went away or the database
/// restarted — and the next node to try takes over. Inserting twice would be harmless anyway
/// (the table's unique key on watch, path, size and mtime makes the second one nothing); the
/// election spares the share N scans.
///
/// A node frozen while it holds the lock (SIGSTOP, a VM paused, a hung thread) keeps its
/// connection, and with it the lock, alive: PostgreSQL cannot tell it from a slow scan. So the
/// ingesting node runs a statement at every scan (its session's `state_change` in
/// `pg_stat_activity` is its scan heartbeat), and a node that fails to win a watch ends the
/// holder's session (`pg_terminate_backend`) once that session has been idle longer than
/// ``stuckSeconds`` — then wins the lock at its next scan. The frozen node, woken, finds its
/// connection gone, and elects again like any node whose connection was renewed.
///
/// Owned by the daemon's main thread; nothing here is shared.
final class ClusterScanner {
    private let session: DatabaseSession
    private let logger: Logger
    private let interval: Double
    /// How long the holder of a watch's lock may go without a statement before another node
    /// ends its session: the lease, and at least five scan intervals.
    let stuckSeconds: Double
    private var layouts: [WatchLayout]
    /// Watches this node ingests now, and the connection it won them on.
    private var ingesting = Set<String>()
    private var lockConnection: ObjectIdentifier?
    private var sightings = [String: [String: Settling]]()
    /// Files inserted (or found inserted), so each is sent once while it stays.
    private var inserted = [String: [String: FileStamp]]()
    /// When the next scan is due: `scan_interval` after the last, or sooner for a hint.
    private var dueAt: UInt64 = 0
    /// Local inotify events, which move a scan earlier (``ClusterHints``); nil: scans alone.
    private let hints: ClusterHints?

    init(session: DatabaseSession, layouts: [WatchLayout], interval: Double, leaseSeconds: Double,
         hints: ClusterHints? = nil, logger: Logger) {
        self.session = session
        self.hints = hints
        self.layouts = layouts
        self.interval = interval
        self.stuckSeconds = max(leaseSeconds, 5 * interval)
        self.logger = logger
    }

    /// A reloaded config's watches: a watch that is gone (or now names another folder) is let
    /// go, its lock released for the node that still has it; the others keep their election.
    func replace(_ newLayouts: [WatchLayout]) {
        let kept = Dictionary(newLayouts.map { ($0.watch.name, $0.watch.path) }, uniquingKeysWith: { a, _ in a })
        for layout in layouts where kept[layout.watch.name] != layout.watch.path {
            let watch = layout.watch.name
            sightings[watch] = nil
            inserted[watch] = nil
            guard ingesting.remove(watch) != nil else { continue }
            _ = session.run { db throws(PGError) in
                try db.query("SELECT pg_advisory_unlock($1, hashtext($2))", [String(ClusterSchema.lockClass), ClusterSchema.ingestPrefix + watch])
            }
            logger.notice("this node no longer scans watch \(watch) (the reloaded config changed it)")
        }
        layouts = newLayouts
        hints?.watch(newLayouts)
    }

    /// The watches this node ingests now (for `darkroom status`).
    var ingestingWatches: [String] { ingesting.sorted() }

    /// Scans when the interval has passed, or at once when a local event hinted at a new file
    /// in a watch this node ingests; returns the files inserted.
    @discardableResult
    func tick(now: UInt64 = JobLease.now()) -> Int {
        let names = hints?.take() ?? []
        let hinted = layouts.filter { names.contains($0.watch.name) && ingesting.contains($0.watch.name) }
        if !hinted.isEmpty {
            logger.debug("a local write in \(hinted.map(\.watch.name).joined(separator: ", ")): scanning now")
            dueAt = min(dueAt, now)
        }
        guard now >= dueAt else { return 0 }
        dueAt = now + UInt64(interval * 1e9)
        // A hinted file is seen once now; the scan after its settle time takes it (the settle
        // rule needs two sightings that far apart), not a whole interval later.
        if let settle = hinted.map({ UInt64(max(0, $0.watch.settleMilliseconds)) * 1_000_000 }).max() {
            dueAt = min(dueAt, now + settle + 1_000_000)
        }
        guard let db = session.connect() else {
            dropElection()
            return 0
        }
        if lockConnection != ObjectIdentifier(db) {
            // A new session holds no advisory lock: the old one's ended with it.
            if !ingesting.isEmpty { logger.notice("the database connection was renewed; electing the ingesting node again") }
            dropElection()
            lockConnection = ObjectIdentifier(db)
        }
        // The scan heartbeat: other nodes see this session busy (see the type's comment). A
        // connection that died meanwhile (ended by another node while this one was frozen)
        // fails here, and the next tick elects again on a new one.
        if !ingesting.isEmpty, session.run({ db throws(PGError) in try db.query("SELECT 1") }) == nil {
            dropElection()
            return 0
        }
        var total = 0
        for layout in layouts {
            let watch = layout.watch.name
            if !ingesting.contains(watch) {
                guard let won = session.run({ db throws(PGError) in
                    try db.query("SELECT pg_try_advisory_lock($1, hashtext($2))",
                                 [String(ClusterSchema.lockClass), ClusterSchema.ingestPrefix + watch]).scalar == "t"
                }) else { continue }
                guard won else {
                    endStuckHolder(of: watch)
                    continue
                }
                ingesting.insert(watch)
                logger.notice("this node now scans and ingests watch \(watch) (\(RawName.display(layout.watch.path)))")
            }
            total += scan(layout, now: now)
        }
        return total
    }

    /// Ends the session holding `watch`'s lock when it has run nothing for ``stuckSeconds``
    /// (its node frozen or hung); the lock is then free for the next tick. Needs the right to
    /// signal that session: the same database role (as every node has), or pg_signal_backend.
    private func endStuckHolder(of watch: String) {
        let ended = session.run { db throws(PGError) in
            try db.query("""
                SELECT a.application_name, pg_terminate_backend(a.pid)
                FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                  AND l.classid = $1::int::oid AND l.objid = hashtext($2)::oid AND a.pid <> pg_backend_pid()
                  AND a.state = 'idle' AND a.state_change < now() - make_interval(secs => $3::float8)
                """, [String(ClusterSchema.lockClass), ClusterSchema.ingestPrefix + watch, String(stuckSeconds)]).rows
        }
        for row in ended ?? [] where row.count == 2 && row[1] == "t" {
            logger.warning("watch \(watch): \(row[0] ?? "another node") held it without scanning for over \(Int(stuckSeconds)) s (frozen or hung); its session was ended so that a live node takes the watch over")
        }
    }

    private func dropElection() {
        ingesting = []
        sightings = [:]
        // Sent again after a reconnection (the table ignores what it has): an insert in flight
        // when the connection broke may not have been committed.
        inserted = [:]
        lockConnection = nil
    }

    /// One scan of one watch; inserts what settled.
    private func scan(_ layout: WatchLayout, now: UInt64) -> Int {
        let watch = layout.watch.name
        let settle = UInt64(max(0, layout.watch.settleMilliseconds)) * 1_000_000
        var previous = sightings[watch] ?? [:]
        var current = [String: Settling]()
        var ready = [(relative: String, stamp: FileStamp)]()
        for path in FolderWalk.files(in: layout.watch.path, layout: layout) {
            guard let relative = layout.relativePath(of: path), let stamp = FileStamp.of(path) else { continue }
            guard var settling = previous.removeValue(forKey: relative) else {
                current[relative] = Settling(stamp, now: now)  // a first sighting
                continue
            }
            let settled = settling.look(stamp, now: now, settleNanoseconds: settle)
            current[relative] = settling
            if settled, inserted[watch]?[relative] != stamp { ready.append((relative, stamp)) }
        }
        sightings[watch] = current
        // Forget what left the folder, so a file that comes back under the same name is new.
        inserted[watch] = inserted[watch]?.filter { current[$0.key]?.stamp == $0.value }
        guard !ready.isEmpty else { return 0 }
        var count = 0
        for batch in stride(from: 0, to: ready.count, by: 1000).map({ Array(ready[$0..<min($0 + 1000, ready.count)]) }) {
            guard let n = session.run({ db throws(PGError) in try ClusterStore.insert(db, watch: watch, files: batch) }) else {
                return count  // the database is away: the files stay settled and are sent at the next scan
            }
            count += n
            for file in batch { inserted[watch, default: [:]][file.relative] = file.stamp }
        }
        if count > 0 { logger.debug("watch \(watch): \(count) new file(s) queued in the cluster") }
        return count
    }
}
