import DarkroomConfig
import Dispatch
import Foundation
import Glibc
import Logging

/// Writes the state file (at most once a second) and the metrics file (every 15 s) from the
/// daemon's ``DaemonActivity``, each atomically: a reader sees a whole file or the previous one.
///
/// Used by the watcher thread alone (it owns the value), between two waits for inotify events.
struct StatePublisher {
    static let stateInterval = 1.0
    static let metricsInterval = 15.0

    let activity: DaemonActivity
    let logger: Logger
    private(set) var config: DaemonConfig
    private(set) var stateFile: String
    private let startTicks = ProcessIdentity.startTicks(of: getpid())
    private var lastState: UInt64?
    private var lastMetrics: UInt64?
    /// Paths whose last write failed: the error is logged once, not every second.
    private var failing = Set<String>()
    /// More metric families for the metrics file (cluster mode's gauges).
    var extraMetrics: () -> String = { "" }

    init(config: DaemonConfig, activity: DaemonActivity, logger: Logger) {
        self.config = config
        self.activity = activity
        self.logger = logger
        stateFile = Self.stateFile(for: config)
    }

    static func stateFile(for config: DaemonConfig) -> String {
        StateFileLocation.daemonFile(configured: config.stateFile, configPath: config.sourcePath,
                                     workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The running config changed (SIGHUP): its watches, and maybe the files' paths.
    mutating func use(_ newConfig: DaemonConfig) {
        config = newConfig
        let file = Self.stateFile(for: newConfig)
        if file != stateFile { unlink(stateFile) }
        stateFile = file
        lastState = nil
        lastMetrics = nil
    }

    /// Writes what is due. `queued` gives the number of files waiting per watch name.
    mutating func tick(queued: () -> [String: Int], now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        let stateDue = lastState.map { Double(now - $0) / 1e9 >= Self.stateInterval } ?? true
        let metricsDue = config.metricsFile != nil && (lastMetrics.map { Double(now - $0) / 1e9 >= Self.metricsInterval } ?? true)
        guard stateDue || metricsDue else { return }
        let snapshot = activity.snapshot()
        let state = makeState(snapshot, queued: queued(), running: true)
        if stateDue {
            lastState = now
            writeState(state)
        }
        if metricsDue, let metricsFile = config.metricsFile {
            lastMetrics = now
            write(Array((MetricsText.render(state, activity: snapshot) + extraMetrics()).utf8), to: metricsFile)
        }
    }

    /// The last word at a clean stop: `running: false` in the state file, final counters in the metrics.
    mutating func stopped() {
        let snapshot = activity.snapshot()
        let state = makeState(snapshot, queued: [:], running: false)
        writeState(state)
        if let metricsFile = config.metricsFile {
            write(Array((MetricsText.render(state, activity: snapshot) + extraMetrics()).utf8), to: metricsFile)
        }
    }

    private mutating func writeState(_ state: DaemonState) {
        guard let data = try? state.jsonData() else { return }
        write(Array(data), to: stateFile)
    }

    private mutating func write(_ bytes: [UInt8], to path: String) {
        do throws(FileError) {
            // Rewritten every second: flushing each to disk would only wear it; a power cut loses
            // nothing a restart does not rewrite.
            try AtomicFile.write(bytes, to: path, durable: false)
            failing.remove(path)
        } catch {
            if failing.insert(path).inserted {
                logger.error("\(error); `darkroom status` and metrics cannot see this daemon until it can be written (state_file:, metrics_file:)")
            }
        }
    }

    func makeState(_ a: DaemonActivity.State, queued: [String: Int], running: Bool, now: Date = Date()) -> DaemonState {
        let t = now.timeIntervalSince1970
        let watches = config.watches.map { w -> DaemonState.Watch in
            let record = a.watches[w.name] ?? DaemonActivity.WatchRecord()
            let inFlight = a.inFlight.filter { $0.value.watch == w.name }
                .map { DaemonState.InFlight(path: $0.key, started: $0.value.started) }
                .sorted { ($0.started, $0.path) < ($1.started, $1.path) }
            return DaemonState.Watch(
                name: w.name, path: w.path, reportsDir: w.reportsDirectory, queued: queued[w.name] ?? 0,
                inFlight: inFlight,
                doneLastHour: record.done.count(lastMinutes: 60, now: t), failedLastHour: record.failed.count(lastMinutes: 60, now: t),
                doneLastDay: record.done.count(lastMinutes: MinuteCounts.minutes, now: t),
                failedLastDay: record.failed.count(lastMinutes: MinuteCounts.minutes, now: t),
                totals: record.totals, lastSuccess: record.lastSuccess, lastError: record.lastError)
        }
        return DaemonState(
            darkroomVersion: DarkroomVersion.string, pid: getpid(), processStartTicks: startTicks,
            started: a.started, updated: now, running: running,
            config: .init(path: a.config.path, sha256: a.config.sha256, loaded: a.config.loaded, reloads: a.reloads),
            workers: config.workers, watches: watches)
    }
}
