import DarkroomConfig
import DarkroomCore
import Dispatch
import Glibc
import Logging

/// What the plain daemon and a cluster node do alike around their work, on the thread that
/// calls ``serve(_:publisher:)``: SIGTERM and SIGINT stop (a second one stops at once), SIGHUP
/// reloads the config with the registry the program handed in, the state file, metrics and
/// systemd's `STATUS=` and watchdog are kept up, and a stop drains the files in flight for up to
/// ``Daemon/drainSeconds``.
///
/// Signals arrive on the ``SignalInbox``'s thread, which only records them (and loads a
/// reloaded config); everything else happens on the serving thread.
final class DaemonHost: Sendable {
    let configPath: String?
    let registry: FilterRegistry
    let logger: Logger
    let notifier = SystemdNotifier()
    let stats = Locked(DaemonStats())
    /// What `darkroom status` and the metrics file show (see ``StatePublisher``).
    let activity: DaemonActivity
    /// Why a reloaded config cannot be applied without a restart (nil: it can); on the signal thread.
    private let restartNeeded: @Sendable (DaemonConfig) -> String?
    private let control = Locked(Control())
    private let lastWatchdog = Locked(DispatchTime.now().uptimeNanoseconds)

    /// Requests from the signal thread to the serving thread.
    private struct Control: Sendable {
        var stopSignal: Int32?
        var pendingConfig: DaemonConfig?
    }

    init(config: DaemonConfig, configPath: String?, registry: FilterRegistry, logger: Logger,
         restartNeeded: @escaping @Sendable (DaemonConfig) -> String? = { _ in nil }) {
        self.configPath = configPath
        self.registry = registry
        self.logger = logger
        self.restartNeeded = restartNeeded
        activity = DaemonActivity(configPath: config.sourcePath, configSHA256: SHA256.hex(config.sourceText))
    }

    /// Starts taking signals. Armed before anything else: a signal sent at any moment after main
    /// blocked it is heard. Close it when serving is over.
    func listen() -> SignalInbox {
        let inbox = SignalInbox { [self] sig in receive(sig) }
        SignalInbox.startDispatchEventThreadHere()
        return inbox
    }

    /// What a signal does (on the signal thread): SIGHUP loads the config again, a valid one
    /// waiting for the serving thread; any other signal asks for a stop.
    func receive(_ signal: Int32) {
        if signal == SIGHUP { reload() } else { requestStop(signal) }
    }

    /// The stop signal and the reloaded config waiting for the serving thread, taken.
    func takeRequests() -> (stop: Int32?, config: DaemonConfig?) {
        control.withLock { c in
            defer { (c.stopSignal, c.pendingConfig) = (nil, nil) }
            return (c.stopSignal, c.pendingConfig)
        }
    }

    /// The stop signal received and not yet acted on, if any.
    var stopSignal: Int32? { control.withLock { $0.stopSignal } }

    /// Stops as if `signal` had been received (a reload that cannot be applied, for one).
    func requestStop(_ signal: Int32) { control.withLock { $0.stopSignal = signal } }

    /// Sends WATCHDOG=1 when it is due.
    func feedWatchdog() { lastWatchdog.withLock { notifier.feedWatchdog(&$0) } }

    /// Keeps the running config: `reason` logged, the reload counted as failed.
    func refuseReload(_ reason: String) { reloader.refuse(reason) }

    private var reloader: ConfigReload {
        ConfigReload(configPath: configPath, registry: registry, logger: logger, activity: activity, notifier: notifier)
    }

    /// Loads the config file again (on the signal thread); a valid one is handed to the serving
    /// thread, an invalid one is explained and the running config kept.
    private func reload() {
        let reload = reloader
        guard let loaded = reload.load() else { return }
        if let reason = restartNeeded(loaded) {
            reload.refuse(reason)
            return
        }
        control.withLock { $0.pendingConfig = loaded }
    }

    /// Runs `service` until a stop signal, then drains it; returns the exit code (0).
    func serve(_ service: some HostedService, publisher initial: StatePublisher) -> Int32 {
        var publisher = initial
        var status = StatusThrottle()
        while true {
            let (stop, newConfig) = takeRequests()
            if let stop {
                logger.notice("received \(Daemon.signalName(stop)); finishing the files in progress (send it again to stop at once)")
                break
            }
            if let newConfig, service.apply(newConfig) { publisher.use(newConfig) }
            publisher.tick(queued: service.queuedByWatch)
            service.turn()
            if let line = status.due(service.statusLine) { notifier.send("STATUS=" + line) }
            feedWatchdog()
        }

        notifier.send("STOPPING=1")
        let inFlight = service.inFlightCount
        var finished = service.stopTakingWork()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Daemon.drainSeconds * 1e9)
        // Wait in short slices: the watchdog keeps being fed, and a second signal is heard.
        while !finished && DispatchTime.now().uptimeNanoseconds < deadline {
            finished = service.waitForWork(upToSeconds: 1)
            feedWatchdog()
            publisher.tick(queued: { [:] })
            if let again = stopSignal {
                logger.warning("received \(Daemon.signalName(again)) again; stopping now")
                break
            }
        }
        if !finished {
            logger.warning("\(service.inFlightCount) of \(inFlight) files abandoned in progress; \(service.abandonedNote)")
        }
        service.stopped()
        publisher.stopped()
        let s = stats.current
        logger.notice("stopped: \(s.processed) processed, \(s.failed) failed")
        return 0
    }
}

/// The work a ``DaemonHost`` serves: the plain daemon's watched folders and queue, or a cluster
/// node's scanner and workers. Called on the serving thread only.
protocol HostedService {
    /// One turn of the main loop: waits up to about a second for something to do.
    func turn()
    /// Puts a reloaded config to work; false when the running one stays (explained in the log).
    func apply(_ config: DaemonConfig) -> Bool
    /// Files waiting per watch name, for the state file.
    func queuedByWatch() -> [String: Int]
    /// systemd's `STATUS=` line.
    var statusLine: String { get }
    /// Files being processed now.
    var inFlightCount: Int { get }
    /// Stops taking new files; true when none is in flight.
    func stopTakingWork() -> Bool
    /// Waits up to `seconds` for the files in flight; true when they are all done.
    func waitForWork(upToSeconds seconds: Double) -> Bool
    /// What becomes of files abandoned in progress at a stop.
    var abandonedNote: String { get }
    /// The last word before the state file says stopped.
    func stopped()
}
