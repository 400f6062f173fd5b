import DarkroomConfig
import DarkroomCore
import Dispatch
import Foundation
import Glibc
import Logging

/// The long-running service: watches the configured folders and processes every image that
/// lands in them (docs/operations.md says what operators rely on).
///
/// Threads: the thread calling ``run()`` owns inotify (``WatchLoop``) and serves the
/// ``DaemonHost`` (signals, reload, drain, systemd); the ``Intake``'s serial queue owns the
/// settle check, the backlog and retries; a bounded pool of Dispatch workers runs jobs (strips
/// inside a job use the executor's concurrency); signals arrive on a thread of their own
/// (``SignalInbox``). They meet only in ``JobQueue``, the intake's entry points (which hop onto
/// its queue), the memory budget, and the host's lock-protected requests and statistics.
public final class Daemon: Sendable {
    private let initialConfig: DaemonConfig
    private let host: DaemonHost

    /// How long SIGTERM waits for the files being processed before exiting anyway (their inputs
    /// stay in place and are processed at the next start). Below systemd's default stop timeout.
    public static let drainSeconds = 60.0

    /// `configPath` is the file SIGHUP reloads (nil: the built-in default, nothing to reload);
    /// `registry` the filters a config may name, the first one's and every reloaded one's.
    public init(config: DaemonConfig, configPath: String?, registry: FilterRegistry, logger: Logger) {
        initialConfig = config
        host = DaemonHost(config: config, configPath: configPath, registry: registry, logger: logger)
    }

    /// Runs until SIGTERM or SIGINT, then finishes the files in flight and returns the exit code:
    /// 0 after a clean stop, 1 when the daemon could not start.
    public func run() -> Int32 {
        let signals = host.listen()
        defer { signals.close() }
        let logger = host.logger
        let lifecycle = JobLifecycle(logger: logger, stats: host.stats, executor: StripExecutor(), activity: host.activity,
                                     budget: Locked(MemoryLimit.makeBudget(initialConfig, previous: nil, logger: logger)))
        let processor = JobProcessor(lifecycle: lifecycle)
        // Files flow one way: watcher → intake (settle) → queue → job → report → disposition.
        // The one way back is a file the job could not finish now, which the intake retries.
        // Workers never notify systemd themselves: STATUS= goes from the serving thread, at
        // most once a second, so a burst of files is not a burst of datagrams.
        let intakeBox = Locked<Intake?>(nil)
        let queue = JobQueue<DaemonJob>(capacity: initialConfig.queueCapacity, workers: initialConfig.workers) { [activity = host.activity] job in
            activity.started(job.path, watch: job.layout.watch.name)
            let outcome = processor.process(job)
            activity.ended(job.path)
            if case .retry(let seconds) = outcome {
                intakeBox.current?.retry(job.path, afterSeconds: seconds)
            }
        }
        let intake = Intake(queue: queue, logger: logger)
        intakeBox.withLock { $0 = intake }
        // A file rewritten while it waited or ran is considered again once its job is done.
        queue.onChangeWhileQueued { path in intake.consider(path) }
        let loop: WatchLoop
        do throws(FileError) {
            loop = try WatchLoop(intake: intake, logger: logger)
            removeLeftoverTemporaries(initialConfig)
            try loop.install(initialConfig, queue: queue)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        guard loop.activeWatchCount > 0 else {
            logger.critical("no watch could be started; see the errors above")
            return 1
        }
        let folders = WatchedFolders(host: host, loop: loop, intake: intake, queue: queue, processor: processor)
        folders.logStart(initialConfig)
        host.notifier.send("READY=1\nSTATUS=" + folders.statusLine)
        return host.serve(folders, publisher: StatePublisher(config: initialConfig, activity: host.activity, logger: logger))
    }

    /// At start-up only (a reload must not touch files that running jobs are writing): removes
    /// the temporary files of outputs and reports that a killed predecessor left behind.
    private func removeLeftoverTemporaries(_ config: DaemonConfig) {
        for watch in config.watches {
            // done/ and failed/ too: a move across file systems copies through a temporary name.
            let folders = Set([watch.reportsDirectory, watch.doneDirectory, watch.failedDirectory] + watch.outputs.map {
                OutputTemplate.fixedDirectory(of: $0.pathTemplate, watch: watch.name)
            })
            for folder in folders.sorted() {
                let removed = AtomicFile.removeLeftovers(below: folder)
                if removed > 0 {
                    host.logger.notice("removed \(removed) unfinished temporary file(s) below \(folder) left by an earlier run")
                }
            }
        }
    }

    static func statusLine(_ s: DaemonStats, pending: Int?) -> String {
        var line = "\(s.processed) processed, \(s.failed) failed"
        if let pending { line += ", \(pending) queued" }
        return line
    }

    static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(sig)"
        }
    }
}

/// The plain daemon's work as its host serves it: inotify events in, the queue's workers out.
private struct WatchedFolders: HostedService {
    let host: DaemonHost
    let loop: WatchLoop
    let intake: Intake
    let queue: JobQueue<DaemonJob>
    let processor: JobProcessor

    func turn() { loop.pollOnce() }

    func apply(_ newConfig: DaemonConfig) -> Bool {
        do throws(FileError) {
            try loop.install(newConfig, queue: queue)
            processor.budget.withLock { $0 = MemoryLimit.makeBudget(newConfig, previous: $0, logger: host.logger) }
        } catch {
            host.activity.reload(succeeded: false)
            host.logger.critical("reload: \(error); stopping")
            host.requestStop(SIGTERM)
            return false
        }
        LogSetup.update(newConfig.log)
        host.activity.reload(succeeded: true)
        host.activity.configLoaded(sha256: SHA256.hex(newConfig.sourceText))
        host.logger.notice("configuration reloaded from \(host.configPath ?? "?")")
        logStart(newConfig)
        host.notifier.send("READY=1\nSTATUS=" + Daemon.statusLine(host.stats.current, pending: nil))
        return true
    }

    func queuedByWatch() -> [String: Int] { queue.pendingCounts { $0.layout.watch.name } }
    var statusLine: String { Daemon.statusLine(host.stats.current, pending: queue.pendingCount) }
    var inFlightCount: Int { queue.inFlightCount }

    func stopTakingWork() -> Bool {
        intake.stop()
        return queue.stop(waitingUpTo: 0)
    }

    func waitForWork(upToSeconds seconds: Double) -> Bool { queue.waitForRunning(upTo: seconds) }
    var abandonedNote: String { "they stay in place and are processed at the next start" }
    func stopped() {}

    func logStart(_ config: DaemonConfig) {
        let watches = config.watches.map { "\($0.name) (\($0.path), \($0.outputs.count) outputs)" }
        let list = watches.joined(separator: ", ")
        host.logger.notice("darkroom \(DarkroomVersion.string) watching \(list); \(config.workers) workers, queue \(config.queueCapacity)")
    }
}
