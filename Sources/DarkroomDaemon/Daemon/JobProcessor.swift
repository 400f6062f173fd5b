import DarkroomCore
import Foundation
import Logging

/// What a worker does with one job: apply the processed-once rule, run the job, write the
/// report, then move, delete or keep the input, and log one line.
struct JobProcessor: Sendable {
    let logger: Logger
    let stats: Locked<DaemonStats>
    let executor: StripExecutor
    let activity: DaemonActivity

    func process(_ job: DaemonJob) {
        guard let before = FileStatus.of(job.path), before.isRegularFile else { return }  // gone meanwhile
        let layout = job.layout
        let reportPath = layout.reportPath(forRelative: job.relative)
        let name = job.relative

        if let existing = JobReport.read(from: reportPath),
           let bytes = try? FileIO.read(job.path, maxBytes: job.limits.maxFileBytes),
           case .finish(let status) = ProcessedOnceRule.decide(existingReport: existing, inputSHA256: SHA256.hex(bytes)) {
            stats.withLock { $0.alreadyDone += 1 }
            let outcome = dispose(job, status: status)
            // Kept inputs are met again at every start; only moves and deletions are news.
            logger.log(level: outcome == .kept ? .debug : .info,
                       "\(name) was already processed (\(status.rawValue)); \(describe(outcome))",
                       metadata: ["watch": "\(layout.watch.name)", "report": "\(reportPath)"])
            return
        }

        let runner = JobRunner(limits: job.limits, executor: executor)
        var report = runner.run(inputPath: job.path, watchName: layout.watch.name,
                                outputs: layout.watch.outputs, seed: layout.watch.seed)
        report.timings.queued = job.queuedAt
        report.configSHA256 = job.configSHA256
        do throws(FileError) {
            try report.write(to: reportPath)
        } catch {
            logger.error("\(name): \(error); the input stays where it is and is processed again at the next start",
                         metadata: ["watch": "\(layout.watch.name)"])
            stats.withLock { $0.failed += 1 }
            activity.finished(watch: layout.watch.name, file: name, status: .failed,
                              error: ReportError(code: "write_failed", message: "\(error)"), seconds: report.timings.total)
            return
        }
        stats.withLock { report.status == .failed ? ($0.failed += 1) : ($0.processed += 1) }
        activity.finished(watch: layout.watch.name, file: name, status: report.status, error: report.error,
                          seconds: report.timings.total)
        let line = JobLogLine.text(for: report, inputName: name)
        let metadata: Logger.Metadata = ["watch": "\(layout.watch.name)"]
        if report.status == .failed { logger.warning("\(line)", metadata: metadata) } else { logger.info("\(line)", metadata: metadata) }
        // Rewritten while it was processed: the report describes the old content, so the new
        // content must not be moved away unprocessed. It stays; the queue hands its change back
        // to the watcher, and the processed-once rule sees a new SHA-256.
        guard FileStatus.of(job.path).map({ $0.sameContentStamp(as: before) }) ?? true else {
            logger.notice("\(name) changed while it was processed; it stays and is processed again", metadata: metadata)
            return
        }
        _ = dispose(job, status: report.status)
    }

    /// Moves, deletes or keeps the input; a failure is logged (the report already exists, so
    /// the next start finishes the move without processing again).
    private func dispose(_ job: DaemonJob, status: JobReport.Status) -> InputDisposition.Outcome? {
        do throws(FileError) {
            return try InputDisposition.apply(status: status, input: job.path, relative: job.relative, layout: job.layout)
        } catch {
            logger.error("\(job.relative): \(error); it will be tidied at the next start",
                         metadata: ["watch": "\(job.layout.watch.name)"])
            return nil
        }
    }

    private func describe(_ outcome: InputDisposition.Outcome?) -> String {
        switch outcome {
        case .moved(let to)?: "moved to \(to)"
        case .deleted?: "deleted"
        case .kept?: "kept"
        case nil: "left in place"
        }
    }
}
