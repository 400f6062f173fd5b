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
public final class ClusterDaemon: Sendable {
    private let config: DaemonConfig
    private let cluster: ClusterConfig
    private let logger: Logger
    private let control = Locked<Int32?>(nil)
    private let stats = Locked(DaemonStats())
    private let notifier = SystemdNotifier()
    private let activity: DaemonActivity
    /// How often finished jobs are pruned.
    static let pruneSeconds = 600.0
    /// How often the node reads the cluster's picture for its state file and metrics.
    static let snapshotSeconds = 5.0

    public init(config: DaemonConfig, cluster: ClusterConfig, logger: Logger) {
        self.config = config
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
        let signals = SignalInbox { [self] sig in
            if sig == SIGHUP {
                logger.warning("SIGHUP: a cluster node does not reload its config; restart it (systemctl restart darkroom) to apply a new one")
            } else {
                control.withLock { $0 = sig }
            }
        }
        defer { signals.close() }
        SignalInbox.startDispatchEventThreadHere()

        let layouts = makeFolders()
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
                                            budget: MemoryBudget(total: budgetBytes), watches: watchSet, cluster: cluster,
                                            activity: activity, stats: stats)
        let workers = ClusterWorkers(cluster: cluster, conninfo: conninfo, processor: processor, health: health, logger: logger)
        let record = nodeRecord()
        workers.start(workers: config.workers, node: { [stats] in
            var r = record
            let s = stats.current
            (r.processed, r.failed) = (s.processed, s.failed)
            return r
        })

        let scanner = ClusterScanner(session: session, layouts: layouts, interval: cluster.scanInterval, logger: logger)
        let picture = Locked<ClusterSnapshot?>(nil)
        var publisher = StatePublisher(config: config, activity: activity, logger: logger)
        publisher.extraMetrics = { [cluster] in
            ClusterMetricsText.render(node: cluster.node, snapshot: picture.current, databaseUp: !health.isDown,
                                      leases: workers.book.count, ingesting: scanner.ingestingWatches)
        }
        var lastPrune: UInt64 = 0, lastSnapshot: UInt64 = 0
        var status = StatusThrottle()
        while control.current == nil {
            let now = JobLease.now()
            scanner.tick(now: now)
            if now >= lastPrune + UInt64(Self.pruneSeconds * 1e9) {
                lastPrune = now
                if let n = session.run({ db throws(PGError) in try ClusterStore.prune(db, keepDays: cluster.keepDoneDays) }), n > 0 {
                    logger.info("pruned \(n) finished job(s) older than \(cluster.keepDoneDays) days")
                }
            }
            if now >= lastSnapshot + UInt64(Self.snapshotSeconds * 1e9) {
                lastSnapshot = now
                picture.withLock { $0 = session.run { db throws(PGError) in try ClusterSnapshot.read(db) } ?? $0 }
            }
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

    /// Creates each watch's folders (as the plain daemon does); a watch whose folders cannot be
    /// made is left out. Temporary files killed processes left are removed only when untouched
    /// for ``leftoverSeconds``: on a shared folder younger ones may be another node's writes.
    private func makeFolders() -> [WatchLayout] {
        config.watches.compactMap { watch in
            do throws(FileError) {
                try WatchFolders.create(for: watch)
            } catch {
                logger.error("watch \(watch.name): \(error); this watch is not started")
                return nil
            }
            for folder in WatchFolders.written(by: watch) {
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

    private func statusLine(health: DatabaseHealth, leases: Int) -> String {
        let s = stats.current
        let db = health.isDown ? "database unreachable, not claiming" : "\(leases) in progress"
        return "node \(cluster.node): \(s.processed) processed, \(s.failed) failed, \(db)"
    }
}
