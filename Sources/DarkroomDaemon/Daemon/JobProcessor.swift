import Foundation
import Glibc
import Logging

/// What a plain daemon's worker does with one job: the ``JobLifecycle`` with nothing to guard,
/// and what it could not finish now handed back to the intake as a retry.
struct JobProcessor: Sendable {
    let lifecycle: JobLifecycle
    /// Paths whose report could not be written, with the attempts so far: the failure is logged
    /// once, and the retries back off.
    let reportFailures = Locked([String: Int]())
    /// Whether the "no leases here" notice was logged.
    let leaseNoticeGiven = Locked(false)

    var budget: Locked<MemoryBudget> { lifecycle.budget }

    /// What the intake should do with the job's file.
    enum Outcome: Equatable {
        case done
        /// Look at the file again later: it is still being written, or its report could not be written.
        case retry(afterSeconds: Double)
    }

    func process(_ job: DaemonJob) -> Outcome {
        var plain = JobLifecycle.Guard()
        plain.leaseUnavailable = noteLeaseUnavailable
        plain.reportWritten = { [reportFailures, lifecycle] in
            guard let attempts = reportFailures.withLock({ $0.removeValue(forKey: job.path) }) else { return }
            lifecycle.logger.notice("\(RawName.display(job.relative)): the report was written after \(attempts + 1) attempts",
                                    metadata: ["watch": "\(job.layout.watch.name)"])
            lifecycle.stats.withLock { $0.failed -= 1 }
        }
        switch lifecycle.run(job, guard: plain) {
        case .finished, .abandoned:
            reportFailures.withLock { $0[job.path] = nil }
            return .done
        case .busy, .retry:
            return .retry(afterSeconds: max(1, Double(job.layout.watch.settleMilliseconds) / 1000))
        case .reportNotWritten(let error):
            // Logged once per file; retried with backoff (1 s, 2 s, 4 s … 60 s) until it works.
            let attempts: Int = reportFailures.withLock { failures in
                failures[job.path, default: 0] += 1
                return failures[job.path]!
            }
            if attempts == 1 {
                lifecycle.logger.error("\(RawName.display(job.relative)): \(error); the input stays where it is, and the report is retried until it can be written",
                                       metadata: ["watch": "\(job.layout.watch.name)"])
                lifecycle.stats.withLock { $0.failed += 1 }
            }
            return .retry(afterSeconds: min(60, pow(2, Double(attempts - 1))))
        }
    }

    private func noteLeaseUnavailable(_ code: Int32) {
        guard leaseNoticeGiven.withLock({ given in defer { given = true }; return !given }) else { return }
        let reason = String(cString: strerror(code))
        lifecycle.logger.notice("read leases are not available here (\(reason)); files are taken on the settle check alone (give the service CAP_LEASE, or run it as the files' owner)")
    }
}
