import DarkroomConfig
import DarkroomCore
import Dispatch
import Foundation
import Glibc
import Logging

/// The daemon as one node of a cluster (`cluster:` in the config): several nodes share the
/// watched folders (NFS, SMB, CephFS) and coordinate through PostgreSQL; `darkroom run` picks
/// this one when the config has a `cluster:` section. Its jobs go through the plain daemon's
/// ``JobLifecycle`` behind the lease (``ClusterJobProcessor``), and the ``DaemonHost`` serves it
/// as it serves the plain ``Daemon``: signals, reload, drain, systemd.
///
/// Threads: the thread calling ``run()`` serves the host, scans the watches this node ingests
/// (``ClusterScanner``), prunes and reads the cluster's picture (``ClusterHousekeeping``);
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
    private let cluster: ClusterConfig
    private let host: DaemonHost
    private let logger: Logger

    /// `registry`: the filters a config may name, the first one's and every reloaded one's.
    public init(config: DaemonConfig, configPath: String?, cluster: ClusterConfig, registry: FilterRegistry, logger: Logger) {
        self.config = config
        self.cluster = cluster
        var logger = logger
        logger[metadataKey: "node"] = "\(cluster.node)"
        self.logger = logger
        host = DaemonHost(config: config, configPath: configPath, registry: registry, logger: logger) { [cluster] loaded in
            loaded.cluster == cluster ? nil
                : "\(configPath ?? "the config") changes the cluster: section, which a node reads at start only (restart the node to apply it)"
        }
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
        let signals = host.listen()
        defer { signals.close() }

        let layouts = Self.makeFolders(config, removingLeftovers: true, logger: logger)
        guard !layouts.isEmpty else {
            logger.critical("no watch could be started; see the errors above")
            return 1
        }
        let health = DatabaseHealth(logger: logger)
        let session = DatabaseSession(conninfo: conninfo, application: "darkroom \(cluster.node)", health: health, logger: logger)
        host.notifier.send("READY=1\nSTATUS=connecting to the database")
        logger.notice("darkroom \(DarkroomVersion.string) node \(cluster.node) of a cluster: \(config.workers) workers, lease \(cluster.leaseSeconds) s, scans every \(cluster.scanInterval) s; watches \(layouts.map { "\($0.watch.name) (\(RawName.display($0.watch.path)))" }.joined(separator: ", "))")

        // The schema first: no worker claims before it is there.
        if let code = waitForSchema(session: session, health: health) { return code }

        let watchSet = WatchSet(layouts: layouts, limits: config.limits, configSHA256: SHA256.hex(config.sourceText))
        let lifecycle = JobLifecycle(logger: logger, stats: host.stats, executor: StripExecutor(), activity: host.activity,
                                     budget: Locked(MemoryLimit.makeBudget(config, previous: nil, logger: logger)))
        let processor = ClusterJobProcessor(node: cluster.node, lifecycle: lifecycle, watchSet: Locked(watchSet), cluster: cluster)
        let workers = ClusterWorkers(cluster: cluster, conninfo: conninfo, processor: processor, health: health, logger: logger)
        let record = nodeRecord()
        workers.start(workers: config.workers, node: { [stats = host.stats] in
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
        var publisher = StatePublisher(config: config, activity: host.activity, logger: logger)
        publisher.extraMetrics = { [cluster] in
            ClusterMetricsText.render(node: cluster.node, snapshot: picture.current, databaseUp: !health.isDown,
                                      leases: workers.book.count, ingesting: scanner.ingestingWatches)
        }
        let node = ClusterNode(host: host, config: config, cluster: cluster, logger: logger, session: session, health: health,
                               processor: processor, workers: workers, scanner: scanner, housekeeping: housekeeping)
        return host.serve(node, publisher: publisher)
    }

    /// Connects and migrates the schema, trying again while the database is away; the exit code
    /// when the node should not go on (a stop signal meanwhile, a schema newer than this node).
    private func waitForSchema(session: DatabaseSession, health: DatabaseHealth) -> Int32? {
        while true {
            if let stop = host.stopSignal {
                logger.notice("received \(Daemon.signalName(stop)) before the database could be reached; stopping")
                return 0
            }
            if let db = session.connect() {
                do throws(ClusterSchemaError) {
                    if case .migrated(let from, let to) = try ClusterSchema.migrate(db) {
                        logger.notice("cluster schema migrated from version \(from) to \(to)")
                    }
                    health.reachable()
                    return nil
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
            host.feedWatchdog()
            usleep(250_000)
        }
    }

    private func nodeRecord() -> NodeRecord {
        NodeRecord(name: cluster.node, host: ProcessInfo.processInfo.hostName, pid: getpid(), version: DarkroomVersion.string,
                   workers: config.workers, processed: 0, failed: 0)
    }

    /// Creates each watch's folders (as the plain daemon does); a watch whose folders cannot be
    /// made is left out. Temporary files killed processes left are removed (at start only, as
    /// the plain daemon does) when untouched for ``leftoverSeconds``: on a shared folder younger
    /// ones may be another node's writes.
    static func makeFolders(_ config: DaemonConfig, removingLeftovers: Bool, logger: Logger) -> [WatchLayout] {
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
}

/// A cluster node's work as its host serves it: the scanner and housekeeping on the serving
/// thread, the workers on their own. A reloaded config replaces the watches, limits and log
/// settings for the jobs claimed from then on.
private struct ClusterNode: HostedService {
    let host: DaemonHost
    /// The config at start: `workers` is read from it only.
    let config: DaemonConfig
    let cluster: ClusterConfig
    let logger: Logger
    let session: DatabaseSession
    let health: DatabaseHealth
    let processor: ClusterJobProcessor
    let workers: ClusterWorkers
    let scanner: ClusterScanner
    let housekeeping: ClusterHousekeeping

    func turn() {
        let now = JobLease.now()
        scanner.tick(now: now)
        housekeeping.tick(now: now)
        usleep(50_000)
    }

    /// False (the running one kept) when none of its watches could be started.
    func apply(_ newConfig: DaemonConfig) -> Bool {
        let layouts = ClusterDaemon.makeFolders(newConfig, removingLeftovers: false, logger: logger)
        guard !layouts.isEmpty || newConfig.watches.isEmpty else {
            host.refuseReload("no watch of the new configuration could be started")
            return false
        }
        let sha256 = SHA256.hex(newConfig.sourceText)
        processor.watchSet.withLock { $0 = WatchSet(layouts: layouts, limits: newConfig.limits, configSHA256: sha256) }
        processor.budget.withLock { $0 = MemoryLimit.makeBudget(newConfig, previous: $0, logger: logger) }
        scanner.replace(layouts)
        LogSetup.update(newConfig.log)
        if newConfig.workers != config.workers {
            logger.warning("workers: \(newConfig.workers) takes effect when the node restarts; it runs \(config.workers) until then")
        }
        host.activity.reload(succeeded: true)
        host.activity.configLoaded(sha256: sha256)
        logger.notice("configuration reloaded from \(host.configPath ?? "?"): watches \(layouts.map(\.watch.name).joined(separator: ", "))")
        host.notifier.send("READY=1\nSTATUS=" + status(health: nil, leases: nil))
        return true
    }

    func queuedByWatch() -> [String: Int] { housekeeping.picture.current?.queuedByWatch ?? [:] }
    var statusLine: String { status(health: health, leases: workers.book.count) }
    var inFlightCount: Int { workers.book.count }
    func stopTakingWork() -> Bool { workers.stop(waitingUpTo: 0) }
    func waitForWork(upToSeconds seconds: Double) -> Bool { workers.wait(upTo: seconds) }
    var abandonedNote: String { "their leases expire and other nodes take them over" }

    func stopped() {
        _ = session.run { [cluster] db throws(PGError) in try ClusterStore.stopped(db, node: cluster.node) }
    }

    private func status(health: DatabaseHealth?, leases: Int?) -> String {
        let s = host.stats.current
        var line = "node \(cluster.node): \(s.processed) processed, \(s.failed) failed"
        if health?.isDown == true { line += ", database unreachable, not claiming" } else if let leases { line += ", \(leases) in progress" }
        return line
    }
}
