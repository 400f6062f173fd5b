import DarkroomConfig
import DarkroomCore
import Foundation
import Logging

/// What a cluster worker does with one claimed job: the ``JobLifecycle`` behind its lease (a
/// job tried more than `max_attempts` times fails as `gave_up` without being opened), its
/// ending turned into what the row records. The publish order (docs/cluster.md) is what makes one result per file survive `kill -9` of any node at any
/// point:
///
/// 1. outputs, each written to a temporary name and renamed over its path (an earlier attempt's
///    output of the same input is replaced, never numbered: ``OutputPlacement``'s owner mark);
/// 2. the report, renamed into place — from here on the file counts as processed: whoever
///    meets it again (the processed-once rule) only finishes step 3;
/// 3. the input moved to done/ or failed/ (deleted or kept, per `on_success`);
/// 4. the job row marked done, if the fencing token is still this worker's.
///
/// Before steps 1, 2 and 3 the worker checks that its lease still covers it (``JobLease``;
/// before the report, a renewal in the database when less than half the lease is left): a
/// worker that lost its job — paused past the lease, cut off from the database — publishes
/// nothing more and lets the node that took over do it. A crash anywhere leaves the lease to expire; the next claimer redoes what is missing.
struct ClusterJobProcessor: Sendable {
    let node: String
    let lifecycle: JobLifecycle
    /// Replaced by a reload (SIGHUP): a job keeps the watches and limits it started with.
    let watchSet: Locked<WatchSet>
    let cluster: ClusterConfig

    var budget: Locked<MemoryBudget> { lifecycle.budget }
    var activity: DaemonActivity { lifecycle.activity }

    /// How the job ended, for the row.
    enum Ending: Equatable {
        /// Mark the row done with this status (a report's, or `gone`, `superseded`, `not_regular`).
        case finished(status: String, error: String?)
        /// Put it back in the queue, due after `seconds`; `counts`: as an attempt (a transient
        /// error), or not (a writer still has the file open: no fault of the file's).
        case requeue(afterSeconds: Double, reason: String, counts: Bool = true)
        /// The lease is gone: leave the row to the node that took it over.
        case abandoned
    }

    /// `fence` renews the lease in the database and says whether it is still this worker's.
    func process(_ claimed: ClaimedJob, lease: JobLease, fence: @escaping () -> Bool) -> Ending {
        let watches = watchSet.current
        guard let layout = watches.layouts.first(where: { $0.watch.name == claimed.watch }) else {
            // Another node's config has a watch this one lacks: leave it to a node that knows it.
            return .requeue(afterSeconds: 60, reason: "node \(node) has no watch named \(claimed.watch)", counts: false)
        }
        let job = DaemonJob(path: layout.watch.path + "/" + claimed.relative, relative: claimed.relative, layout: layout,
                            limits: watches.limits, configSHA256: watches.configSHA256, queuedAt: claimed.queuedAt)
        var leased = JobLifecycle.Guard(node: node, isHeld: { lease.isHeld }, fence: fence, expected: claimed.stamp,
                                        retriesOpenErrors: true)
        leased.disposalNote = "it stays in place (its report says it is done)"

        let ending: JobLifecycle.Ending
        if claimed.attempts > cluster.maxAttempts {
            let why = claimed.lastError.map { ": \($0)" } ?? " (a node stopped while it held it)"
            let draft = ReportDraft(watchName: layout.watch.name, inputPath: job.path, queued: job.queuedAt,
                                    configSHA256: job.configSHA256)
            let report = draft.finish(.failed, ReportError(code: .gaveUp,
                message: "tried \(claimed.attempts - 1) times\(why); cluster.max_attempts is \(cluster.maxAttempts)"))
            ending = lifecycle.publish(report, job: job, guard: leased, stampBefore: nil)
        } else {
            ending = lifecycle.run(job, guard: leased)
        }
        switch ending {
        case .finished(let status, let error): return .finished(status: status, error: error)
        case .abandoned: return .abandoned
        case .busy(let reason):
            return .requeue(afterSeconds: max(1, Double(layout.watch.settleMilliseconds) / 1000), reason: reason, counts: false)
        case .retry(let reason): return retry(claimed, reason: reason)
        case .reportNotWritten(let error): return retry(claimed, reason: "cannot write the report: \(error)")
        }
    }

    /// A transient error: back to the queue with exponential backoff (1 s, 2 s, 4 s … 5 min).
    private func retry(_ job: ClaimedJob, reason: String) -> Ending {
        let seconds = min(300, pow(2, Double(max(0, job.attempts - 1))))
        lifecycle.logger.warning("\(RawName.display(job.relative)): \(reason); tried again in \(Int(seconds)) s (attempt \(job.attempts) of \(cluster.maxAttempts))",
                                 metadata: ["watch": "\(job.watch)"])
        return .requeue(afterSeconds: seconds, reason: reason)
    }
}
