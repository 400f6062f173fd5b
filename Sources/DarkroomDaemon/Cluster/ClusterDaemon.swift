import DarkroomConfig
import DarkroomCore
import Dispatch
import Foundation
import Glibc
import Logging

/// The daemon as one node of a cluster (`cluster:` in the config): several nodes share the
/// watched folders (NFS, SMB, CephFS) and coordinate through PostgreSQL. The plain ``Daemon``
/// is untouched; `darkroom run` picks this one when the config has a `cluster:` section.
///
/// Threads: the thread calling ``run()`` handles signals, scans the watches this node ingests
/// (``ClusterScanner``), prunes, and publishes the state file, metrics and systemd status;
/// ``ClusterWorkers`` claim and process jobs, each on its own thread and connection, and a
/// heartbeat thread renews the node's row and its leases. They share only lock-protected
/// values (``LeaseBook``, ``DatabaseHealth``, ``DaemonActivity``, the statistics).
///
/// SIGHUP reloads the config as the plain daemon does: an invalid one is explained and the
/// running one kept; a valid one replaces the watches, limits and log settings for the jobs
/// claimed from then on. `cluster:` and `workers` are read at start only (a change is logged
/// as waiting for a restart).
public final class ClusterDaemon: Sendable {
    private let config: DaemonConfig
    private let configPath: String?
    private let cluster: ClusterConfig
    /// A valid config loaded on SIGHUP, for the main thread to apply.
    private let pendingConfig = Locked<DaemonConfig?>(nil)
    private let logger: Logger
    private let control = Locked<Int32?>(nil)
    private let stats = Locked(DaemonStats())
    private let notifier = SystemdNotifier()
    private let activity: DaemonActivity

    public init(config: DaemonConfig, configPath: String?, cluster: ClusterConfig, logger: Logger) {
        self.config = config
        self.configPath = configPath
        self.cluster = cluster
        var logger = logger
        logger[metadataKey: "node"] = "\(cluster.node)"
        self.logger = logger
        activity = DaemonActivity(configPath: config.sourcePath, configSHA256: SHA256.hex(config.sourceText))
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code (1 when the node could not start).
    public func run() -> Int32 {
        let conninfo: String
        do throws(ConnectionString.Missing) {
            conninfo = try ConnectionString.resolve(cluster.database)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        // libpq is opened now (nothing links it): a missing one stops the node with its package's
        // name, instead of being retried like a database that is away.
        do throws(PGError) {
            _ = try PGConnection.library()
        } catch {
            logger.critical("cluster mode needs libpq: \(error)")
            return 1
        }
        let signals = SignalInbox { [self] sig in
            if sig == SIGHUP {
                reloadConfig()
            } else {
                control.withLock { $0 = sig }
            }
        }
        defer { signals.close() }
        SignalInbox.startDispatchEventThreadHere()

        let layouts = makeFolders(config, removingLeftovers: true)
        guard !layouts.isEmpty else {
            logger.critical("no watch could be started; see the errors above")
            return 1
        }
        let health = DatabaseHealth(logger: logger)
        let session = DatabaseSession(conninfo: conninfo, application: "darkroom \(cluster.node)", health: health, logger: logger)
        notifier.send("READY=1\nSTATUS=connecting to the database")
        logger.notice("darkroom \(DarkroomVersion.string) node \(cluster.node) of a cluster: \(config.workers) workers, lease \(cluster.leaseSeconds) s, scans every \(cluster.scanInterval) s; watches \(layouts.map { "\($0.watch.name) (\(RawName.display($0.watch.path)))" }.joined(separator: ", "))")

        // The schema first: no worker claims before it is there.
        var lastWatchdog = DispatchTime.now().uptimeNanoseconds
        while true {
            if let stop = control.current {
                logger.notice("received \(Daemon.signalName(stop)) before the database could be reached; stopping")
                return 0
            }
            if let db = session.connect() {
                do throws(ClusterSchemaError) {
                    if case .migrated(let from, let to) = try ClusterSchema.migrate(db) {
                        logger.notice("cluster schema migrated from version \(from) to \(to)")
                    }
                    health.reachable()
                    break
                } catch {
                    switch error {
                    case .newer:
                        logger.critical("\(error)")
                        return 1
                    case .database(let e) where e.connectionLost:
                        health.failed(e)
                    case .database:
                        logger.error("\(error); trying again in 5 s")
                        usleep(5_000_000)
                    }
                }
            }
            notifier.feedWatchdog(&lastWatchdog)
            usleep(250_000)
        }

        let (budgetBytes, _) = MemoryLimit.budget(configured: config.limits.maxMemory)
        let watchSet = WatchSet(layouts: layouts, limits: config.limits, configSHA256: SHA256.hex(config.sourceText))
        let processor = ClusterJobProcessor(node: cluster.node, logger: logger, executor: StripExecutor(),
                                            budget: Locked(MemoryBudget(total: budgetBytes, resident: { SharedAssets.store.byteCount })), watchSet: Locked(watchSet),
                                            cluster: cluster, activity: activity, stats: stats)
        let workers = ClusterWorkers(cluster: cluster, conninfo: conninfo, processor: processor, health: health, logger: logger)
        let record = nodeRecord()
        workers.start(workers: config.workers, node: { [stats] in
            var r = record
            let s = stats.current
            (r.processed, r.failed) = (s.processed, s.failed)
            return r
        })

        let hints = ClusterHints(layouts: layouts, logger: logger)
        defer { hints.stop() }
        let scanner = ClusterScanner(session: session, layouts: layouts, interval: cluster.scanInterval,
                                     leaseSeconds: cluster.leaseSeconds, hints: hints, logger: logger)
        let housekeeping = ClusterHousekeeping(session: session, keepDoneDays: cluster.keepDoneDays, logger: logger)
        let picture = housekeeping.picture
        var publisher = StatePublisher(config: config, activity: activity, logger: logger)
        publisher.extraMetrics = { [cluster] in
            ClusterMetricsText.render(node: cluster.node, snapshot: picture.current, databaseUp: !health.isDown,
                                      leases: workers.book.count, ingesting: scanner.ingestingWatches)
        }
        var status = StatusThrottle()
        var running = config
        while control.current == nil {
            if let newConfig = pendingConfig.withLock({ pending in defer { pending = nil }; return pending }) {
                if apply(newConfig, running: running, processor: processor, scanner: scanner) {
                    running = newConfig
                    publisher.use(newConfig)
                }
            }
            let now = JobLease.now()
            scanner.tick(now: now)
            housekeeping.tick(now: now)
            publisher.tick(queued: { picture.current?.queuedByWatch ?? [:] })
            if let line = status.due(statusLine(health: health, leases: workers.book.count)) { notifier.send("STATUS=" + line) }
            notifier.feedWatchdog(&lastWatchdog)
            usleep(50_000)
        }

        let stop = control.current ?? SIGTERM
        logger.notice("received \(Daemon.signalName(stop)); finishing the files in progress (send it again to stop at once)")
        notifier.send("STOPPING=1")
        control.withLock { $0 = nil }
        let inFlight = workers.book.count
        var finished = workers.stop(waitingUpTo: 0)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Daemon.drainSeconds * 1e9)
        while !finished && DispatchTime.now().uptimeNanoseconds < deadline {
            finished = workers.wait(upTo: 1)
            notifier.feedWatchdog(&lastWatchdog)
            if control.current != nil {
                logger.warning("received a second stop signal; stopping now")
                break
            }
        }
        if !finished {
            logger.warning("\(workers.book.count) of \(inFlight) files abandoned in progress; their leases expire and other nodes take them over")
        }
        _ = session.run { db throws(PGError) in try ClusterStore.stopped(db, node: cluster.node) }
        publisher.stopped()
        let s = stats.current
        logger.notice("stopped: \(s.processed) processed, \(s.failed) failed")
        return 0
    }

    private func nodeRecord() -> NodeRecord {
        NodeRecord(name: cluster.node, host: ProcessInfo.processInfo.hostName, pid: getpid(), version: DarkroomVersion.string,
                   workers: config.workers, processed: 0, failed: 0)
    }

    /// Loads the config file again (on the signal thread); a valid one is handed to the main
    /// thread, an invalid one is explained and the running config kept.
    private func reloadConfig() {
        let reload = ConfigReload(configPath: configPath, logger: logger, activity: activity, notifier: notifier)
        guard let loaded = reload.load() else { return }
        guard loaded.cluster == cluster else {
            reload.refuse("\(configPath ?? "the config") changes the cluster: section, which a node reads at start only (restart the node to apply it)")
            return
        }
        pendingConfig.withLock { $0 = loaded }
    }

    /// Puts a reloaded config to work for the jobs claimed from now on; false (the running one
    /// kept) when none of its watches could be started.
    private func apply(_ newConfig: DaemonConfig, running: DaemonConfig, processor: ClusterJobProcessor,
                       scanner: ClusterScanner) -> Bool {
        let layouts = makeFolders(newConfig, removingLeftovers: false)
        guard !layouts.isEmpty || newConfig.watches.isEmpty else {
            ConfigReload(configPath: configPath, logger: logger, activity: activity, notifier: notifier)
                .refuse("no watch of the new configuration could be started")
            return false
        }
        let sha256 = SHA256.hex(newConfig.sourceText)
        processor.watchSet.withLock { $0 = WatchSet(layouts: layouts, limits: newConfig.limits, configSHA256: sha256) }
        if newConfig.limits.maxMemory != running.limits.maxMemory {
            let (bytes, source) = MemoryLimit.budget(configured: newConfig.limits.maxMemory)
            processor.budget.withLock { $0 = MemoryBudget(total: bytes, resident: { SharedAssets.store.byteCount }) }
            logger.notice("memory budget for images: \(JobRunner.mebibytes(bytes)) (\(source))")
        }
        scanner.replace(layouts)
        LogSetup.update(newConfig.log)
        if newConfig.workers != config.workers {
            logger.warning("workers: \(newConfig.workers) takes effect when the node restarts; it runs \(config.workers) until then")
        }
        activity.reload(succeeded: true)
        activity.configLoaded(sha256: sha256)
        logger.notice("configuration reloaded from \(configPath ?? "?"): watches \(layouts.map(\.watch.name).joined(separator: ", "))")
        notifier.send("READY=1\nSTATUS=" + statusLine(health: nil, leases: nil))
        return true
    }

    /// Creates each watch's folders (as the plain daemon does); a watch whose folders cannot be
    /// made is left out. Temporary files killed processes left are removed (at start only, as
    /// the plain daemon does) when untouched for ``leftoverSeconds``: on a shared folder younger
    /// ones may be another node's writes.
    private func makeFolders(_ config: DaemonConfig, removingLeftovers: Bool) -> [WatchLayout] {
        config.watches.compactMap { watch in
            do throws(FileError) {
                try WatchFolders.create(for: watch)
            } catch {
                logger.error("watch \(watch.name): \(error); this watch is not started")
                return nil
            }
            for folder in WatchFolders.written(by: watch) where removingLeftovers {
                let removed = AtomicFile.removeLeftovers(below: folder, unchangedFor: Self.leftoverSeconds)
                if removed > 0 {
                    logger.notice("removed \(removed) temporary file(s) below \(folder) untouched for over an hour (left by a node that was killed)")
                }
            }
            return WatchLayout(watch, among: config.watches)
        }
    }

    /// A temporary file unchanged this long is no node's write in progress (a write takes seconds).
    static let leftoverSeconds = 3600.0

    private func statusLine(health: DatabaseHealth?, leases: Int?) -> String {
        let s = stats.current
        var line = "node \(cluster.node): \(s.processed) processed, \(s.failed) failed"
        if health?.isDown == true { line += ", database unreachable, not claiming" } else if let leases { line += ", \(leases) in progress" }
        return line
    }
}
