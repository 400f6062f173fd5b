import DarkroomCore
import Foundation
import Glibc
import Logging

/// What a worker does with one job, in one direction: open the input once, apply the
/// processed-once rule, run the job, write the report, then move, delete or keep the input,
/// and log one line. What it cannot finish now it hands back as a ``Outcome/retry(afterSeconds:)``.
struct JobProcessor: Sendable {
    let logger: Logger
    let stats: Locked<DaemonStats>
    let executor: StripExecutor
    let activity: DaemonActivity
    /// Replaced when a reload changes `limits.max_memory`; a running job keeps the one it reserved from.
    let budget: Locked<MemoryBudget>
    /// Paths whose report could not be written, with the attempts so far: the failure is logged
    /// once, and the retries back off.
    let reportFailures = Locked([String: Int]())
    /// Whether the "no leases here" notice was logged.
    let leaseNoticeGiven = Locked(false)
    /// Gives up broken leases at once, so writers do not wait for a job's next check.
    let leaseMonitor = LeaseMonitor()

    /// What the intake should do with the job's file.
    enum Outcome: Equatable {
        case done
        /// Look at the file again later: it is still being written, or its report could not be written.
        case retry(afterSeconds: Double)
    }

    func process(_ job: DaemonJob) -> Outcome {
        let layout = job.layout
        let name = RawName.display(job.relative)
        let metadata: Logger.Metadata = ["watch": "\(layout.watch.name)"]
        let reportPath = layout.reportPath(forRelative: job.relative)
        let retryBusy = Outcome.retry(afterSeconds: max(1, Double(layout.watch.settleMilliseconds) / 1000))

        let input: InputFile
        do throws(InputFile.OpenError) {
            input = try InputFile.open(job.path, maxBytes: job.limits.maxFileBytes, lease: true,
                                       leaseUnavailable: noteLeaseUnavailable)
        } catch {
            switch error {
            case .gone:
                reportFailures.withLock { $0[job.path] = nil }  // nothing left to report on
                return .done
            case .notRegularFile:
                logger.notice("\(name) is not a regular file (a symbolic link, FIFO or device); it is left alone", metadata: metadata)
                return .done
            case .beingWritten:
                logger.debug("\(name) is still open for writing; it is taken once the writer closes it", metadata: metadata)
                return retryBusy
            case .tooLarge, .system:
                var draft = ReportDraft(watchName: layout.watch.name, inputPath: job.path, queued: job.queuedAt,
                                        configSHA256: job.configSHA256)
                if case .tooLarge(let size) = error { draft.input.bytes = size }
                let report = draft.finish(.failed, JobRunner.reportError(for: error, path: job.path, limits: job.limits))
                return finish(job, report: report, reportPath: reportPath, stampBefore: nil)
            }
        }
        leaseMonitor.watch(input)
        defer { leaseMonitor.unwatch(input) }
        TestBarrier.pass(.reportCheck, file: name)
        let existing = JobReport.read(from: reportPath)
        // The hash is waited for here only when there is a report to compare it with; otherwise
        // a file read in place goes on being hashed beside its decode.
        if existing != nil, case .finish(let status) = try? ProcessedOnceRule.decide(existingReport: existing,
                                                                                        inputSHA256: input.sha256()) {
            stats.withLock { $0.alreadyDone += 1 }
            let outcome = dispose(job, status: status)
            // Kept inputs are met again at every start; only moves and deletions are news.
            logger.log(level: outcome == .kept ? .debug : .info,
                       "\(name) was already processed (\(status.rawValue)); \(describe(outcome))",
                       metadata: ["watch": "\(layout.watch.name)", "report": "\(RawName.display(reportPath))"])
            return .done
        }

        let runner = JobRunner(limits: job.limits, executor: executor)
        let spec = JobRunner.Spec(
            inputPath: job.path,
            naming: .init(relativePath: job.relative, watchName: layout.watch.name, mirrorFolders: layout.watch.recursive),
            outputs: layout.watch.outputs, seed: layout.watch.seed,
            owner: .init(mark: layout.watch.name + ":" + job.relative, rule: layout.watch.onConflict,
                         previousOutputs: Set(existing?.outputs.map(\.path) ?? [])),
            queued: job.queuedAt, configSHA256: job.configSHA256)
        let outcome = runner.run(input: input.content, sha256: input.sha256, spec: spec, budget: budget.current,
                                 shouldAbandon: { input.leaseBroken || input.changedSinceOpen })
        TestBarrier.pass(.rendered, file: name)
        guard case .finished(let report) = outcome, !input.leaseBroken, !input.changedSinceOpen else {
            logger.info("\(name) was opened for writing while it was processed; it is taken again once the writer is done",
                        metadata: metadata)
            return retryBusy
        }
        // The lease (the descriptor) is held until the input has been disposed of.
        return withExtendedLifetime(input) {
            finish(job, report: report, reportPath: reportPath, stampBefore: input.status)
        }
    }

    /// Writes the report, logs the job's line and disposes of the input.
    private func finish(_ job: DaemonJob, report: JobReport, reportPath: String, stampBefore: FileStatus?) -> Outcome {
        let name = RawName.display(job.relative)
        let metadata: Logger.Metadata = ["watch": "\(job.layout.watch.name)"]
        do throws(FileError) {
            try report.write(to: reportPath)
        } catch {
            // Logged once per file; retried with backoff (1 s, 2 s, 4 s … 60 s) until it works.
            let attempts: Int = reportFailures.withLock { failures in
                failures[job.path, default: 0] += 1
                return failures[job.path]!
            }
            if attempts == 1 {
                logger.error("\(name): \(error); the input stays where it is, and the report is retried until it can be written",
                             metadata: metadata)
                stats.withLock { $0.failed += 1 }
            }
            return .retry(afterSeconds: min(60, pow(2, Double(attempts - 1))))
        }
        if let attempts = reportFailures.withLock({ $0.removeValue(forKey: job.path) }) {
            logger.notice("\(name): the report was written after \(attempts + 1) attempts", metadata: metadata)
            stats.withLock { $0.failed -= 1 }
        }
        stats.withLock { report.status == .failed ? ($0.failed += 1) : ($0.processed += 1) }
        activity.finished(watch: job.layout.watch.name, file: name, status: report.status, error: report.error,
                          seconds: report.timings.total)
        let line = JobLogLine.text(for: report, inputName: name)
        if report.status == .failed { logger.warning("\(line)", metadata: metadata) } else { logger.info("\(line)", metadata: metadata) }
        // Rewritten while it was processed (where no lease could say so): the report describes
        // the old content, so the new content must not be moved away unprocessed. It stays;
        // the queue hands its change back to the intake, and the processed-once rule sees a
        // new SHA-256.
        if let stampBefore, let now = FileStatus.of(job.path), !now.sameContentStamp(as: stampBefore) {
            logger.notice("\(name) changed while it was processed; it stays and is processed again", metadata: metadata)
            return .done
        }
        _ = dispose(job, status: report.status)
        return .done
    }

    private func noteLeaseUnavailable(_ code: Int32) {
        guard leaseNoticeGiven.withLock({ given in defer { given = true }; return !given }) else { return }
        let reason = String(cString: strerror(code))
        logger.notice("read leases are not available here (\(reason)); files are taken on the settle check alone (give the service CAP_LEASE, or run it as the files' owner)")
    }

    /// Moves, deletes or keeps the input; a failure is logged (the report already exists, so
    /// the next start finishes the move without processing again).
    private func dispose(_ job: DaemonJob, status: JobReport.Status) -> InputDisposition.Outcome? {
        do throws(FileError) {
            return try InputDisposition.apply(status: status, input: job.path, relative: job.relative, layout: job.layout)
        } catch {
            logger.error("\(RawName.display(job.relative)): \(error); it will be tidied at the next start",
                         metadata: ["watch": "\(job.layout.watch.name)"])
            return nil
        }
    }

    private func describe(_ outcome: InputDisposition.Outcome?) -> String {
        switch outcome {
        case .moved(let to)?: "moved to \(RawName.display(to))"
        case .deleted?: "deleted"
        case .kept?: "kept"
        case nil: "left in place"
        }
    }
}
