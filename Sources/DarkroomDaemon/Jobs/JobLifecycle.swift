import DarkroomCore
import Foundation
import Glibc
import Logging

/// One job's life, the same in the plain daemon and a cluster node, in one direction: open the
/// input once → already processed? (then only tidy it) → render the outputs → publish the report
/// → dispose of the input (move, delete or keep), logging one line.
///
/// What a cluster node adds is its ``Guard``: before each publishing step (outputs, report,
/// disposition) it asks whether its lease still covers the job, and before the report it fences
/// (renews in the database when the lease runs low); the plain daemon's guard always holds.
/// What the job could not finish now comes back as an ``Ending`` for the caller to schedule.
struct JobLifecycle: Sendable {
    let logger: Logger
    let stats: Locked<DaemonStats>
    let executor: StripExecutor
    let activity: DaemonActivity
    /// Replaced when a reload changes `limits.max_memory`; a running job keeps the one it reserved from.
    let budget: Locked<MemoryBudget>
    /// Gives up broken leases at once, so writers do not wait for a job's next check.
    let leaseMonitor = LeaseMonitor()

    /// What the cluster asks of a job beyond the plain daemon's; the default is the plain daemon's.
    struct Guard {
        /// Written into the report (`node`).
        var node: String?
        /// Whether the job is still this worker's (a cluster lease that surely holds).
        var isHeld: () -> Bool = { true }
        /// Asked once, just before the report is written: false when the job was lost.
        var fence: () -> Bool = { true }
        /// The file the job was queued for: another file under the name ends the job as `superseded`.
        var expected: FileStamp?
        /// An error opening the input is retried (a shared folder's hiccup) rather than reported.
        var retriesOpenErrors = false
        /// Called when the lease on the input cannot be taken at all (the errno).
        var leaseUnavailable: (Int32) -> Void = { _ in }
        /// Called once the report is in place, before the job's line is logged.
        var reportWritten: () -> Void = {}
        /// Why an input that could not be disposed of is safe where it is (logged with the error).
        var disposalNote = "it will be tidied at the next start"
    }

    /// How a job ended, for the caller to record or schedule.
    enum Ending: Equatable {
        /// Over: a report's status, or `gone`, `superseded`, `not_regular`.
        case finished(status: String, error: String?)
        /// A writer has the file open: look again after the settle time (no fault of the file's).
        case busy(reason: String)
        /// A transient error: try again later.
        case retry(reason: String)
        /// The report could not be written; the input stays where it is.
        case reportNotWritten(FileError)
        /// The lease is gone: the node that took the job over finishes it.
        case abandoned
    }

    /// Runs `job` from opening its input to disposing of it, as far as `jobGuard` lets it go.
    func run(_ job: DaemonJob, guard jobGuard: Guard) -> Ending {
        let layout = job.layout
        let name = RawName.display(job.relative)
        let reportPath = layout.reportPath(forRelative: job.relative)
        let input: InputFile
        switch open(job, guard: jobGuard) {
        case .file(let file): input = file
        case .ended(let ending): return ending
        }
        // The name holds another file than the one the job was queued for (rewritten or replaced
        // since): this job is over; the new content is a job of its own once it settles.
        if let expected = jobGuard.expected, FileStamp.of(descriptor: input.descriptor)?.recorded != expected {
            return .finished(status: "superseded", error: nil)
        }
        leaseMonitor.watch(input)
        defer { leaseMonitor.unwatch(input) }
        TestBarrier.pass(.reportCheck, file: name)
        let existing = JobReport.read(from: reportPath)
        // The hash is waited for here only when there is a report to compare it with; otherwise
        // a file read in place goes on being hashed beside its decode.
        if existing != nil, case .finish(let status) = try? ProcessedOnceRule.decide(existingReport: existing,
                                                                                        inputSHA256: input.sha256()) {
            // Processed before (a node died, or the daemon stopped, after its report): only the input's place is left.
            guard jobGuard.isHeld() else { return lost(job) }
            stats.withLock { $0.alreadyDone += 1 }
            let outcome = dispose(job, status: status, guard: jobGuard)
            // Kept inputs are met again at every start; only moves and deletions are news.
            logger.log(level: outcome == .kept ? .debug : .info,
                       "\(name) was already processed (\(status.rawValue)); \(describe(outcome))",
                       metadata: ["watch": "\(layout.watch.name)", "report": "\(RawName.display(reportPath))"])
            return .finished(status: status.rawValue, error: existing?.error?.code)
        }

        let runner = JobRunner(limits: job.limits, executor: executor)
        let spec = JobRunner.Spec(
            inputPath: job.path,
            naming: .init(relativePath: job.relative, watchName: layout.watch.name, mirrorFolders: layout.watch.recursive),
            outputs: layout.watch.outputs, seed: layout.watch.seed,
            owner: .init(mark: layout.watch.name + ":" + job.relative, rule: layout.watch.onConflict,
                         previousOutputs: Set(existing?.outputs.map(\.path) ?? [])),
            queued: job.queuedAt, configSHA256: job.configSHA256, thumbnailBox: layout.watch.thumbnailBox)
        // Asked before each output is placed: a writer or a lost lease publishes nothing.
        let outcome = runner.run(input: input.content, sha256: input.sha256, spec: spec, budget: budget.current,
                                 shouldAbandon: { input.leaseBroken || input.changedSinceOpen || !jobGuard.isHeld() })
        TestBarrier.pass(.rendered, file: name)
        guard case .finished(let report) = outcome, !input.leaseBroken, !input.changedSinceOpen else {
            if !jobGuard.isHeld() { return lost(job) }
            logger.info("\(name) was opened for writing while it was processed; it is taken again once the writer is done",
                        metadata: meta(job))
            return .busy(reason: "opened for writing while processed")
        }
        // The lease (the descriptor) is held until the input has been disposed of.
        return withExtendedLifetime(input) {
            publish(report, job: job, guard: jobGuard, stampBefore: input.status)
        }
    }

    private enum Opened {
        case file(InputFile)
        case ended(Ending)
    }

    /// The input, opened once (and leased); or how the job ended without it.
    private func open(_ job: DaemonJob, guard jobGuard: Guard) -> Opened {
        let name = RawName.display(job.relative)
        do throws(InputFile.OpenError) {
            return .file(try InputFile.open(job.path, maxBytes: job.limits.maxFileBytes, lease: true,
                                            leaseUnavailable: jobGuard.leaseUnavailable))
        } catch {
            switch error {
            case .gone:
                // Moved away after its report (the report says how it ended), or removed by someone.
                if let report = JobReport.read(from: job.layout.reportPath(forRelative: job.relative)) {
                    return .ended(.finished(status: report.status.rawValue, error: report.error?.code))
                }
                return .ended(.finished(status: "gone", error: "the file was gone before it was processed"))
            case .notRegularFile:
                logger.notice("\(name) is not a regular file (a symbolic link, FIFO or device); it is left alone", metadata: meta(job))
                return .ended(.finished(status: "not_regular", error: nil))
            case .beingWritten:
                logger.debug("\(name) is still open for writing; it is taken once the writer closes it", metadata: meta(job))
                return .ended(.busy(reason: "open for writing"))
            case .system(let e) where jobGuard.retriesOpenErrors:
                return .ended(.retry(reason: e.description))
            case .tooLarge, .system:
                var draft = ReportDraft(watchName: job.layout.watch.name, inputPath: job.path, queued: job.queuedAt,
                                        configSHA256: job.configSHA256)
                if case .tooLarge(let size) = error { draft.input.bytes = size }
                let report = draft.finish(.failed, JobRunner.reportError(for: error, path: job.path, limits: job.limits))
                return .ended(publish(report, job: job, guard: jobGuard, stampBefore: nil))
            }
        }
    }

    /// The report, then the input's disposition, each behind the guard; logs the job's line.
    /// `stampBefore`: the input as opened, to notice a rewrite no lease could announce.
    func publish(_ finished: JobReport, job: DaemonJob, guard jobGuard: Guard, stampBefore: FileStatus?) -> Ending {
        let name = RawName.display(job.relative)
        var report = finished
        report.node = jobGuard.node
        guard jobGuard.fence(), jobGuard.isHeld() else { return lost(job) }
        let reportPath = job.layout.reportPath(forRelative: job.relative)
        if let error = JobThumbnails.write(&report, folder: job.layout.thumbnailFolder(forRelative: job.relative),
                                           reportName: FileIO.fileName(of: reportPath), input: stampBefore?.stamp) {
            logger.warning("\(name): the thumbnails for the contact sheet cannot be written (\(error)); the sheet makes its own",
                           metadata: meta(job))
        }
        do throws(FileError) {
            try report.write(to: reportPath)
        } catch {
            return .reportNotWritten(error)
        }
        jobGuard.reportWritten()
        stats.withLock { report.status == .failed ? ($0.failed += 1) : ($0.processed += 1) }
        activity.finished(watch: job.layout.watch.name, file: name, status: report.status, error: report.error,
                          seconds: report.timings.total)
        let line = JobLogLine.text(for: report, inputName: name)
        if report.status == .failed { logger.warning("\(line)", metadata: meta(job)) } else { logger.info("\(line)", metadata: meta(job)) }
        let ending = Ending.finished(status: report.status.rawValue, error: report.error?.code)
        // Rewritten while it was processed (where no lease could say so): the report describes
        // the old content, so the new content must not be moved away unprocessed. It stays and
        // is met again as a change; the processed-once rule sees a new SHA-256.
        if let stampBefore, let now = FileStatus.of(job.path), now.stamp != stampBefore.stamp {
            logger.notice("\(name) changed while it was processed; it stays and is processed again", metadata: meta(job))
            return ending
        }
        // The report is the record: past it, a lost lease only means the next node tidies the input.
        guard jobGuard.isHeld() else { return lost(job) }
        _ = dispose(job, status: report.status, guard: jobGuard)
        return ending
    }

    /// Moves, deletes or keeps the input; a failure is logged (the report already exists, so
    /// whoever meets the input again finishes the move without processing it again).
    private func dispose(_ job: DaemonJob, status: JobReport.Status, guard jobGuard: Guard) -> InputDisposition.Outcome? {
        do throws(FileError) {
            return try InputDisposition.apply(status: status, input: job.path, relative: job.relative, layout: job.layout)
        } catch {
            logger.error("\(RawName.display(job.relative)): \(error); \(jobGuard.disposalNote)", metadata: meta(job))
            return nil
        }
    }

    private func lost(_ job: DaemonJob) -> Ending {
        logger.warning("\(RawName.display(job.relative)): this node lost its lease on the job (paused, or cut off from the database, for longer than cluster.lease); publishing nothing, the node that took it over finishes it",
                       metadata: meta(job))
        return .abandoned
    }

    private func describe(_ outcome: InputDisposition.Outcome?) -> String {
        switch outcome {
        case .moved(let to)?: "moved to \(RawName.display(to))"
        case .deleted?: "deleted"
        case .kept?: "kept"
        case nil: "left in place"
        }
    }

    private func meta(_ job: DaemonJob) -> Logger.Metadata { ["watch": "\(job.layout.watch.name)"] }
}
