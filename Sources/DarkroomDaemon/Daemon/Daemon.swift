import DarkroomDrawing
import DarkroomConfig
import DarkroomCore
import Dispatch
import Foundation
import Glibc
import Logging

/// The long-running service: watches the configured folders and processes every image that
/// lands in them (docs/operations.md says what operators rely on).
///
/// Threads: the thread calling ``run()`` owns inotify (``WatchLoop``); the ``Intake``'s serial
/// queue owns the settle check, the backlog and retries; a bounded pool of Dispatch workers
/// runs jobs (strips inside a job use the executor's concurrency); signals arrive on a
/// thread of their own (``SignalInbox``). They meet only in ``JobQueue``, the intake's entry
/// points (which hop onto its queue), the memory budget, and the lock-protected ``Control``
/// and statistics.
public final class Daemon: Sendable {
    private let initialConfig: DaemonConfig
    private let configPath: String?
    private let logger: Logger
    private let control = Locked(Control())
    private let stats = Locked(DaemonStats())
    private let notifier = SystemdNotifier()
    /// What `darkroom status` and the metrics file show (see ``StatePublisher``).
    private let activity: DaemonActivity

    /// How long SIGTERM waits for the files being processed before exiting anyway (their inputs
    /// stay in place and are processed at the next start). Below systemd's default stop timeout.
    public static let drainSeconds = 60.0

    /// Requests from signal handlers to the watcher thread.
    private struct Control: Sendable {
        var stopSignal: Int32?
        var pendingConfig: DaemonConfig?
    }

    /// `configPath` is the file SIGHUP reloads (nil: the built-in default, nothing to reload).
    public init(config: DaemonConfig, configPath: String?, logger: Logger) {
        initialConfig = config
        self.configPath = configPath
        self.logger = logger
        activity = DaemonActivity(configPath: config.sourcePath, configSHA256: SHA256.hex(config.sourceText))
    }

    /// Runs until SIGTERM or SIGINT, then finishes the files in flight and returns the exit code:
    /// 0 after a clean stop, 1 when the daemon could not start.
    public func run() -> Int32 {
        // Armed before anything else: a signal sent at any moment after main blocked it is heard.
        let signals = SignalInbox { [self] sig in
            if sig == SIGHUP { reloadConfig() } else { control.withLock { $0.stopSignal = sig } }
        }
        defer { signals.close() }
        SignalInbox.startDispatchEventThreadHere()

        let processor = JobProcessor(logger: logger, stats: stats, executor: StripExecutor(), activity: activity,
                                     budget: Locked(makeBudget(initialConfig, previous: nil)))
        // Files flow one way: watcher → intake (settle) → queue → job → report → disposition.
        // The one way back is a file the job could not finish now, which the intake retries.
        // Workers never notify systemd themselves: STATUS= goes from this thread, at most once a
        // second, so a burst of files is not a burst of datagrams.
        let intakeBox = Locked<Intake?>(nil)
        let queue = JobQueue<DaemonJob>(capacity: initialConfig.queueCapacity, workers: initialConfig.workers) { [activity] job in
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
        var publisher = StatePublisher(config: initialConfig, activity: activity, logger: logger)
        let queuedByWatch = { queue.pendingCounts { $0.layout.watch.name } }
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
        logStart(initialConfig)
        notifier.send("READY=1\nSTATUS=" + Self.statusLine(stats.current, pending: queue.pendingCount))

        var lastWatchdog = DispatchTime.now().uptimeNanoseconds
        var status = StatusThrottle()
        while true {
            let (stop, newConfig): (Int32?, DaemonConfig?) = control.withLock { c in
                defer { c.pendingConfig = nil }
                return (c.stopSignal, c.pendingConfig)
            }
            if let stop {
                logger.notice("received \(Self.signalName(stop)); finishing the files in progress (send it again to stop at once)")
                control.withLock { $0.stopSignal = nil }
                break
            }
            if let newConfig {
                apply(newConfig, to: loop, queue: queue, processor: processor)
                publisher.use(newConfig)
            }
            publisher.tick(queued: queuedByWatch)
            loop.pollOnce()
            if let line = status.due(Self.statusLine(stats.current, pending: queue.pendingCount)) {
                notifier.send("STATUS=" + line)
            }
            notifier.feedWatchdog(&lastWatchdog)
        }

        notifier.send("STOPPING=1")
        intake.stop()
        let inFlight = queue.inFlightCount
        var finished = queue.stop(waitingUpTo: 0)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.drainSeconds * 1e9)
        // Wait in short slices: the watchdog keeps being fed, and a second signal is heard.
        while !finished && DispatchTime.now().uptimeNanoseconds < deadline {
            finished = queue.waitForRunning(upTo: 1)
            notifier.feedWatchdog(&lastWatchdog)
            publisher.tick(queued: { [:] })
            if let again = control.withLock({ $0.stopSignal }) {
                logger.warning("received \(Self.signalName(again)) again; stopping now")
                break
            }
        }
        if !finished {
            let left = queue.inFlightCount
            logger.warning("\(left) of \(inFlight) files abandoned in progress; they stay in place and are processed at the next start")
        }
        publisher.stopped()
        let s = stats.current
        logger.notice("stopped: \(s.processed) processed, \(s.failed) failed")
        return 0
    }

    private func apply(_ newConfig: DaemonConfig, to loop: WatchLoop, queue: JobQueue<DaemonJob>, processor: JobProcessor) {
        do throws(FileError) {
            try loop.install(newConfig, queue: queue)
            processor.budget.withLock { $0 = makeBudget(newConfig, previous: $0) }
        } catch {
            activity.reload(succeeded: false)
            logger.critical("reload: \(error); stopping")
            control.withLock { $0.stopSignal = SIGTERM }
            return
        }
        LogSetup.update(newConfig.log)
        activity.reload(succeeded: true)
        activity.configLoaded(sha256: SHA256.hex(newConfig.sourceText))
        logger.notice("configuration reloaded from \(configPath ?? "?")")
        logStart(newConfig)
        notifier.send("READY=1\nSTATUS=" + Self.statusLine(stats.current, pending: nil))
    }

    /// The memory budget for `config` (``MemoryLimit``): the one in use when its size is unchanged.
    private func makeBudget(_ config: DaemonConfig, previous: MemoryBudget?) -> MemoryBudget {
        let (bytes, source) = MemoryLimit.budget(configured: config.limits.maxMemory)
        if let previous, previous.total == bytes { return previous }
        logger.notice("memory budget for images: \(JobRunner.mebibytes(bytes)) (\(source)); larger jobs wait, and a job that could never fit fails as too_large")
        return MemoryBudget(total: bytes, resident: { SharedAssets.store.byteCount })
    }

    private func logStart(_ config: DaemonConfig) {
        let watches = config.watches.map { "\($0.name) (\($0.path), \($0.outputs.count) outputs)" }
        let list = watches.joined(separator: ", ")
        logger.notice("darkroom \(DarkroomVersion.string) watching \(list); \(config.workers) workers, queue \(config.queueCapacity)")
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
                    logger.notice("removed \(removed) unfinished temporary file(s) below \(folder) left by an earlier run")
                }
            }
        }
    }

    /// Loads the config file again; a valid one is handed to the watcher thread, an invalid one
    /// is explained and the running config kept.
    private func reloadConfig() {
        let reload = ConfigReload(configPath: configPath, logger: logger, activity: activity, notifier: notifier)
        guard let config = reload.load() else { return }
        control.withLock { $0.pendingConfig = config }
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
