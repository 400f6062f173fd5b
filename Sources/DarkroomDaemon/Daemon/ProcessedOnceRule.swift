/// How the daemon processes each file once, across restarts and crashes (kill -9 included).
///
/// For each input the daemon (1) writes its outputs atomically, (2) writes its report
/// atomically, then (3) moves, deletes or keeps the input. The report is the record that the
/// work is done; the input's place is only tidied afterwards. So, whenever a file is picked up
/// (at start-up, after a rescan, or on an event), an existing report for the same relative path
/// is compared with the file:
/// - same SHA-256 as the report's input: the work was done; only step (3) is (re)done, for the
///   recorded status: `ok`/`skipped` → the watch's `on_success`; `failed` → the failed folder.
///   With `on_success: keep` this is how a kept file is known to be done.
/// - no report, an unreadable one, or another SHA-256 (a new file under an old name): the file is
///   processed (again). A crash between (1) and (2) thus rewrites the same outputs, atomically
///   and with the same content for a fixed seed: nothing is lost and nothing is left half-done.
public enum ProcessedOnceRule {
    public enum Decision: Equatable, Sendable {
        /// Run the job.
        case process
        /// Already processed with this status: only finish the input's disposition.
        case finish(JobReport.Status)
    }

    /// The decision for an input whose content hashes to `inputSHA256`, given the report found
    /// at its report path (nil when there is none).
    public static func decide(existingReport: JobReport?, inputSHA256: String) -> Decision {
        guard let report = existingReport, report.input.sha256 == inputSHA256 else { return .process }
        return .finish(report.status)
    }
}
