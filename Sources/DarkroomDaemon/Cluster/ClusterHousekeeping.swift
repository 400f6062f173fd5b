import DarkroomConfig
import Logging

/// What a node's main thread does for the cluster besides scanning: prunes finished jobs and
/// reads the cluster's picture for its state file and metrics. Both are done at the first
/// ``tick(now:)`` (a node started at boot prunes at once) and then every ``pruneSeconds`` and
/// ``snapshotSeconds``. Used by one thread only.
final class ClusterHousekeeping {
    /// How often finished jobs are pruned.
    static let pruneSeconds = 600.0
    /// How often the node reads the cluster's picture for its state file and metrics.
    static let snapshotSeconds = 5.0

    private let session: DatabaseSession
    private let keepDoneDays: Int
    private let logger: Logger
    private var prune = Periodic(every: pruneSeconds)
    private var snapshot = Periodic(every: snapshotSeconds)
    /// The last picture read (nil until one could be).
    let picture = Locked<ClusterSnapshot?>(nil)

    init(session: DatabaseSession, keepDoneDays: Int, logger: Logger) {
        self.session = session
        self.keepDoneDays = keepDoneDays
        self.logger = logger
    }

    /// Does what is due at `now` (`CLOCK_BOOTTIME` nanoseconds, ``JobLease/now()``).
    func tick(now: UInt64) {
        if prune.due(now: now) {
            if let n = session.run({ [keepDoneDays] db throws(PGError) in try ClusterStore.prune(db, keepDays: keepDoneDays) }), n > 0 {
                logger.info("pruned \(n) finished job(s) older than \(keepDoneDays) days")
            }
        }
        if snapshot.due(now: now) {
            let read = session.run { db throws(PGError) in try ClusterSnapshot.read(db) }
            picture.withLock { $0 = read ?? $0 }
        }
    }
}
