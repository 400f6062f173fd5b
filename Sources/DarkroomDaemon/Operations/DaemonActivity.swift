import Foundation

/// What the daemon has been doing, kept for `darkroom status` (the state file) and for metrics:
/// per watch, the files in flight, totals by outcome, per-minute counts over the last day, a
/// histogram of file times, the last success and the last error; and the config's history.
///
/// Workers, the watcher thread and the signal queue all report here; everything sits behind
/// one lock and every method is short, so it never holds up a worker.
public final class DaemonActivity: Sendable {
    private let state: Locked<State>

    struct State: Sendable {
        var started: Date
        var config: ConfigRecord
        var reloads: [String: Int] = ["success": 0, "failure": 0]
        var watches: [String: WatchRecord] = [:]
        /// In flight, by input path.
        var inFlight: [String: InFlightFile] = [:]
    }

    struct ConfigRecord: Sendable {
        var path: String?
        var sha256: String
        var loaded: Date
    }

    struct InFlightFile: Sendable {
        var watch: String
        var started: Date
    }

    struct WatchRecord: Sendable {
        var totals: [String: Int] = ["ok": 0, "failed": 0, "skipped": 0]
        var done = MinuteCounts()
        var failed = MinuteCounts()
        var seconds = FileSecondsHistogram()
        var lastSuccess: Date?
        var lastError: DaemonState.LastError?
    }

    public init(configPath: String?, configSHA256: String, started: Date = Date()) {
        state = Locked(State(started: started, config: ConfigRecord(path: configPath, sha256: configSHA256, loaded: started)))
    }

    /// A config was (re)loaded and is now the one running.
    func configLoaded(sha256: String, at date: Date = Date()) {
        state.withLock { s in
            s.config.sha256 = sha256
            s.config.loaded = date
        }
    }

    /// Counts a SIGHUP's outcome: `success` (the new config runs) or `failure` (the old one stays).
    func reload(succeeded: Bool) {
        state.withLock { $0.reloads[succeeded ? "success" : "failure", default: 0] += 1 }
    }

    func started(_ path: String, watch: String, at date: Date = Date()) {
        state.withLock { $0.inFlight[path] = InFlightFile(watch: watch, started: date) }
    }

    func ended(_ path: String) {
        state.withLock { _ = $0.inFlight.removeValue(forKey: path) }
    }

    /// A file was processed and its report written (`status` is the report's).
    func finished(watch: String, file: String, status: JobReport.Status, error: ReportError?,
                  seconds: Double, at date: Date = Date()) {
        state.withLock { s in
            var w = s.watches[watch] ?? WatchRecord()
            w.totals[status.rawValue, default: 0] += 1
            w.seconds.observe(seconds)
            let t = date.timeIntervalSince1970
            if status == .failed {
                w.failed.add(at: t)
                w.lastError = DaemonState.LastError(time: date, file: file, code: error?.code ?? "unknown",
                                                    message: error?.message ?? "")
            } else {
                w.done.add(at: t)
                w.lastSuccess = date
            }
            s.watches[watch] = w
        }
    }

    /// A copy of everything, for one state file or one metrics file.
    func snapshot() -> State { state.current }
}
