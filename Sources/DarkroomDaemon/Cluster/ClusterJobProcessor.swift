import DarkroomConfig
import DarkroomCore
import Foundation
import Logging

/// What a cluster worker does with one claimed job. The publish order (README, "Running on
/// several machines") is what makes one result per file survive `kill -9` of any node at any
/// point:
///
/// 1. outputs, each written to a temporary name and renamed over its path (an earlier attempt's
///    output of the same input is replaced, never numbered: ``OutputPlacement``'s owner mark);
/// 2. the report, renamed into place — from here on the file counts as processed: whoever
///    meets it again (the processed-once rule) only finishes step 3;
/// 3. the input moved to done/ or failed/ (deleted or kept, per `on_success`);
/// 4. the job row marked done, if the fencing token is still this worker's.
///
/// Before steps 1, 2 and 3 the worker checks that its lease still covers it (``JobLease``; before
/// the report, a renewal in the database when less than half the lease is left): a worker that lost its job — paused past the
/// lease, cut off from the database — publishes nothing more and lets the node that took over
/// do it. A crash anywhere leaves the lease to expire; the next claimer redoes what is missing.
struct ClusterJobProcessor: Sendable {
    let node: String
    let logger: Logger
    let executor: StripExecutor
    /// Replaced by a reload (SIGHUP): a job keeps the budget, watches and limits it started with.
    let budget: Locked<MemoryBudget>
    let watchSet: Locked<WatchSet>
    let cluster: ClusterConfig
    let activity: DaemonActivity
    let stats: Locked<DaemonStats>

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
    func process(_ job: ClaimedJob, lease: JobLease, fence: () -> Bool) -> Ending {
        let watches = watchSet.current
        guard let layout = watches.layouts.first(where: { $0.watch.name == job.watch }) else {
            // Another node's config has a watch this one lacks: leave it to a node that knows it.
            return .requeue(afterSeconds: 60, reason: "node \(node) has no watch named \(job.watch)", counts: false)
        }
        let path = layout.watch.path + "/" + job.relative
        let name = RawName.display(job.relative)
        let reportPath = layout.reportPath(forRelative: job.relative)
        let limits = watches.limits
        var draft = ReportDraft(watchName: layout.watch.name, inputPath: path, queued: job.queuedAt,
                                configSHA256: watches.configSHA256)

        if job.attempts > cluster.maxAttempts {
            let why = job.lastError.map { ": \($0)" } ?? " (a node stopped while it held it)"
            let report = draft.finish(.failed, ReportError(code: .gaveUp,
                message: "tried \(job.attempts - 1) times\(why); cluster.max_attempts is \(cluster.maxAttempts)"))
            return publish(report, job: job, layout: layout, path: path, reportPath: reportPath, lease: lease, fence: fence)
        }

        let input: InputFile
        do throws(InputFile.OpenError) {
            input = try InputFile.open(path, maxBytes: limits.maxFileBytes, lease: true)
        } catch {
            switch error {
            case .gone:
                // Moved away by the node that held it before (after its report: the report says
                // how it ended), or removed by someone.
                if let report = JobReport.read(from: reportPath) {
                    return .finished(status: report.status.rawValue, error: report.error?.code)
                }
                return .finished(status: "gone", error: "the file was gone before it was processed")
            case .notRegularFile:
                logger.notice("\(name) is not a regular file (a symbolic link, FIFO or device); it is left alone", metadata: meta(layout))
                return .finished(status: "not_regular", error: nil)
            case .beingWritten:
                return .requeue(afterSeconds: max(1, Double(layout.watch.settleMilliseconds) / 1000), reason: "open for writing",
                                counts: false)
            case .tooLarge(let size):
                draft.input.bytes = size
                let report = draft.finish(.failed, JobRunner.reportError(for: error, path: path, limits: limits))
                return publish(report, job: job, layout: layout, path: path, reportPath: reportPath, lease: lease, fence: fence)
            case .system(let e):
                return retry(job, reason: e.description)
            }
        }
        // The name holds another file than the one the scan settled (rewritten or replaced since):
        // this job is over; the scan inserts the new content as a job of its own once it settles.
        guard FileStamp.of(descriptor: input.descriptor) == job.stamp else {
            return .finished(status: "superseded", error: nil)
        }
        let existing = JobReport.read(from: reportPath)
        // The hash is waited for here only when there is a report to compare it with (a read
        // error then fails the job when it asks again).
        if existing != nil, case .finish(let status) = try? ProcessedOnceRule.decide(existingReport: existing,
                                                                                        inputSHA256: input.sha256()) {
            // Processed before (a node died after its report): only the input's place is left.
            guard lease.isHeld else { return lost(job, name, layout) }
            stats.withLock { $0.alreadyDone += 1 }
            dispose(status: status, path: path, relative: job.relative, layout: layout)
            logger.info("\(name) was already processed (\(status.rawValue)); its input was tidied", metadata: meta(layout))
            return .finished(status: status.rawValue, error: existing?.error?.code)
        }

        let runner = JobRunner(limits: limits, executor: executor)
        let spec = JobRunner.Spec(
            inputPath: path,
            naming: .init(relativePath: job.relative, watchName: layout.watch.name, mirrorFolders: layout.watch.recursive),
            outputs: layout.watch.outputs, seed: layout.watch.seed,
            owner: .init(mark: layout.watch.name + ":" + job.relative, rule: layout.watch.onConflict,
                         previousOutputs: Set(existing?.outputs.map(\.path) ?? [])),
            queued: job.queuedAt, configSHA256: watches.configSHA256)
        // Asked before each output is placed: a lost lease publishes nothing.
        let outcome = runner.run(input: input.content, sha256: input.sha256, spec: spec, budget: budget.current,
                                 shouldAbandon: { input.leaseBroken || input.changedSinceOpen || !lease.isHeld })
        TestBarrier.pass(.rendered, file: name)
        guard case .finished(let report) = outcome else {
            if !lease.isHeld { return lost(job, name, layout) }
            return .requeue(afterSeconds: max(1, Double(layout.watch.settleMilliseconds) / 1000),
                            reason: "opened for writing while processed", counts: false)
        }
        return withExtendedLifetime(input) {
            publish(report, job: job, layout: layout, path: path, reportPath: reportPath, lease: lease, fence: fence)
        }
    }

    /// Steps 2 and 3: the report, then the input's disposition, each behind the fence.
    private func publish(_ finished: JobReport, job: ClaimedJob, layout: WatchLayout, path: String, reportPath: String,
                         lease: JobLease, fence: () -> Bool) -> Ending {
        let name = RawName.display(job.relative)
        var report = finished
        report.node = node
        guard fence(), lease.isHeld else { return lost(job, name, layout) }
        do throws(FileError) {
            try report.write(to: reportPath)
        } catch {
            return retry(job, reason: "cannot write the report: \(error)")
        }
        stats.withLock { report.status == .failed ? ($0.failed += 1) : ($0.processed += 1) }
        activity.finished(watch: layout.watch.name, file: name, status: report.status, error: report.error,
                          seconds: report.timings.total)
        let line = JobLogLine.text(for: report, inputName: name)
        if report.status == .failed { logger.warning("\(line)", metadata: meta(layout)) } else { logger.info("\(line)", metadata: meta(layout)) }
        // The report is the record: past it, a lost lease only means the next node tidies the input.
        guard lease.isHeld else { return lost(job, name, layout) }
        dispose(status: report.status, path: path, relative: job.relative, layout: layout)
        return .finished(status: report.status.rawValue, error: report.error?.code)
    }

    private func dispose(status: JobReport.Status, path: String, relative: String, layout: WatchLayout) {
        do throws(FileError) {
            _ = try InputDisposition.apply(status: status, input: path, relative: relative, layout: layout)
        } catch {
            logger.error("\(RawName.display(relative)): \(error); it stays in place (its report says it is done)", metadata: meta(layout))
        }
    }

    /// A transient error: back to the queue with exponential backoff (1 s, 2 s, 4 s … 5 min).
    private func retry(_ job: ClaimedJob, reason: String) -> Ending {
        let seconds = min(300, pow(2, Double(max(0, job.attempts - 1))))
        logger.warning("\(RawName.display(job.relative)): \(reason); tried again in \(Int(seconds)) s (attempt \(job.attempts) of \(cluster.maxAttempts))",
                       metadata: ["watch": "\(job.watch)"])
        return .requeue(afterSeconds: seconds, reason: reason)
    }

    private func lost(_ job: ClaimedJob, _ name: String, _ layout: WatchLayout) -> Ending {
        logger.warning("\(name): this node lost its lease on the job (paused, or cut off from the database, for longer than cluster.lease); publishing nothing, the node that took it over finishes it",
                       metadata: meta(layout))
        return .abandoned
    }

    private func meta(_ layout: WatchLayout) -> Logger.Metadata { ["watch": "\(layout.watch.name)"] }
}
