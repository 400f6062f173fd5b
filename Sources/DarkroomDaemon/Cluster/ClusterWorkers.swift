import DarkroomConfig
import DarkroomCore
import Dispatch
import Foundation
import Logging

/// The node's workers, each on a thread of its own with its own database connection, and the
/// heartbeat thread that renews the node's row and every lease its workers hold.
///
/// A worker loops: claim (one statement), process (``ClusterJobProcessor``), record the ending
/// on the row. With nothing to claim it waits on `LISTEN darkroom_jobs` (the ingesting node
/// notifies after inserting) or a second, whichever comes first. While the database is away
/// nothing is claimed; a job in progress goes on as long as its lease surely holds, and its
/// publishing waits for the database up to that point (see ``JobLease``).
final class ClusterWorkers: Sendable {
    let cluster: ClusterConfig
    let conninfo: String
    let processor: ClusterJobProcessor
    let health: DatabaseHealth
    let book = LeaseBook()
    let logger: Logger
    private let stopping = Locked(false)
    private let group = DispatchGroup()
    /// Seconds an idle worker waits for a notification before claiming again.
    static let idleSeconds = 1.0

    init(cluster: ClusterConfig, conninfo: String, processor: ClusterJobProcessor, health: DatabaseHealth, logger: Logger) {
        self.cluster = cluster
        self.conninfo = conninfo
        self.processor = processor
        self.health = health
        self.logger = logger
    }

    func start(workers: Int, node: @escaping @Sendable () -> NodeRecord) {
        for i in 0..<workers {
            DedicatedThread.start(name: "darkroom-worker", group: group) { [self] in work(index: i) }
        }
        DedicatedThread.start(name: "darkroom-heartbeat", group: group) { [self] in heartbeat(node: node) }
    }

    /// Stops claiming; returns whether every worker finished within `seconds`.
    func stop(waitingUpTo seconds: Double) -> Bool {
        stopping.withLock { $0 = true }
        return group.wait(timeout: .now() + seconds) == .success
    }

    /// Waits up to `seconds` for the workers to end (after ``stop(waitingUpTo:)``).
    func wait(upTo seconds: Double) -> Bool { group.wait(timeout: .now() + seconds) == .success }

    private var isStopping: Bool { stopping.current }

    private func work(index: Int) {
        let session = DatabaseSession(conninfo: conninfo, application: "darkroom \(cluster.node) worker \(index + 1)",
                                      health: health, logger: logger)
        session.onConnect = { (db: PGConnection) throws(PGError) in try ClusterStore.prepareWorkerSession(db) }
        while !isStopping {
            let sent = JobLease.now()
            guard let claimed = session.run({ db throws(PGError) in
                try ClusterStore.claim(db, node: cluster.node, leaseSeconds: cluster.leaseSeconds)
            }) else {
                usleep(250_000)  // the database is away (or refused): try again shortly
                continue
            }
            guard let job = claimed else {
                if session.connection?.waitForNotification(seconds: Self.idleSeconds) == nil { usleep(250_000) }
                continue
            }
            let lease = JobLease(job: job, leaseSeconds: cluster.leaseSeconds, sentAt: sent)
            book.add(lease)
            let path = processor.watchSet.current.layouts.first { $0.watch.name == job.watch }.map { $0.watch.path + "/" + job.relative } ?? job.relative
            processor.activity.started(path, watch: job.watch)
            let ending = processor.process(job, lease: lease, fence: { [self] in fence(lease, session) })
            record(ending, lease: lease, session: session)
            processor.activity.ended(path)
            book.remove(lease)
        }
    }

    /// The fence before the report. While more than half the lease surely holds, the local
    /// count is proof enough (no claim can take a job whose lease has not expired in the
    /// database) and costs no round trip; past that the lease is renewed in the database,
    /// waiting for an absent database while the lease surely holds.
    private func fence(_ lease: JobLease, _ session: DatabaseSession) -> Bool {
        if lease.secondsLeft > cluster.leaseSeconds * JobLease.margin / 2 { return true }
        while lease.isHeld {
            let sent = JobLease.now()
            if let ours = session.run({ db throws(PGError) in try ClusterStore.renew(db, lease.job, leaseSeconds: cluster.leaseSeconds) }) {
                if ours { lease.renewed(leaseSeconds: cluster.leaseSeconds, sentAt: sent) } else { lease.lose() }
                return ours
            }
            usleep(250_000)
        }
        return false
    }

    /// Writes the ending to the row; a database that is away is waited for while the lease
    /// holds (past it, the next claimer finds the work published and only records it).
    private func record(_ ending: ClusterJobProcessor.Ending, lease: JobLease, session: DatabaseSession) {
        let job = lease.job
        while true {
            let result: Bool? = switch ending {
            case .abandoned: true
            case .finished(let status, let error):
                session.run { db throws(PGError) in try ClusterStore.finish(db, job, status: status, error: error) }
            case .requeue(let seconds, let reason, let counts):
                session.run { db throws(PGError) in
                    try ClusterStore.requeue(db, job, afterSeconds: seconds, error: reason, counts: counts)
                }
            }
            if let ours = result {
                if !ours {
                    logger.notice("\(RawName.display(job.relative)): another node took the job over before it was recorded here; it records it itself",
                                  metadata: ["watch": "\(job.watch)"])
                }
                return
            }
            if !lease.isHeld { return }
            usleep(250_000)
        }
    }

    private func heartbeat(node: @Sendable () -> NodeRecord) {
        let session = DatabaseSession(conninfo: conninfo, application: "darkroom \(cluster.node) heartbeat",
                                      health: health, logger: logger)
        let interval = cluster.leaseSeconds / 3
        while !(isStopping && book.count == 0) {
            let sent = JobLease.now()
            _ = session.run { db throws(PGError) in try ClusterStore.heartbeat(db, node: node()) }
            for lease in book.all {
                guard let ours = session.run({ db throws(PGError) in try ClusterStore.renew(db, lease.job, leaseSeconds: cluster.leaseSeconds) })
                else { break }
                if ours { lease.renewed(leaseSeconds: cluster.leaseSeconds, sentAt: sent) } else { lease.lose() }
            }
            // Sleep in short slices, so a stop is noticed quickly.
            let wake = sent + UInt64(interval * 1e9)
            while JobLease.now() < wake && !(isStopping && book.count == 0) { usleep(50_000) }
        }
        _ = session.run { db throws(PGError) in try ClusterStore.heartbeat(db, node: node()) }
    }
}
