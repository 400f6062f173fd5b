import DarkroomConfig
import Dispatch
import Foundation
import Logging

/// The watcher thread's work: keep inotify watches on the configured folders, turn events and
/// scans into settled files, and submit them to the job queue.
///
/// Owned by the thread that calls ``Daemon/run()``; nothing here is shared with other threads
/// except through ``JobQueue``.
final class WatchLoop {
    private let watcher: InotifyWatcher
    private let queue: JobQueue<DaemonJob>
    private let logger: Logger
    private var config: DaemonConfig
    private var configSHA256: String
    private var layouts: [WatchLayout] = []
    private var tracker: SettleTracker
    /// Set when files may be waiting unseen: the queue or the tracker was full, or the kernel
    /// dropped events. The folders are then scanned again once there is room.
    private(set) var rescanNeeded = false
    private var lastTick: UInt64 = 0
    static let tickNanoseconds: UInt64 = 50_000_000

    init(config: DaemonConfig, queue: JobQueue<DaemonJob>, logger: Logger) throws(FileError) {
        watcher = try InotifyWatcher()
        self.queue = queue
        self.logger = logger
        self.config = config
        configSHA256 = SHA256.hex(config.sourceText)
        tracker = SettleTracker(capacity: config.queueCapacity)
    }

    /// Number of watches in use (a watch whose folders cannot be created is left out).
    var activeWatchCount: Int { layouts.count }
    var settlingCount: Int { tracker.count }

    /// Creates the folders, watches them and queues what is already there.
    func start() {
        layouts = []
        for watch in config.watches {
            do throws(FileError) {
                try FileIO.createDirectory(watch.path)
                for folder in [watch.failedDirectory, watch.reportsDirectory] { try FileIO.createDirectory(folder) }
                if watch.onSuccess == .move { try FileIO.createDirectory(watch.doneDirectory) }
            } catch {
                logger.error("watch \(watch.name): \(error); this watch is not started")
                continue
            }
            layouts.append(WatchLayout(watch, among: config.watches))
        }
        for layout in layouts { watchAndScan(folder: layout.watch.path, layout: layout) }
        tick(force: true)
    }

    /// Swaps in a new config: drops every watch and every settling file, then starts again
    /// (the scan finds the dropped files again; queued jobs keep the config they were queued
    /// under).
    func reload(_ newConfig: DaemonConfig) throws(FileError) {
        try watcher.removeAll()
        tracker = SettleTracker(capacity: newConfig.queueCapacity)
        config = newConfig
        configSHA256 = SHA256.hex(newConfig.sourceText)
        queue.setLimits(capacity: newConfig.queueCapacity, workers: newConfig.workers)
        rescanNeeded = false
        start()
    }

    /// Waits for events (at most about a second), handles them, submits settled files, and
    /// rescans when needed and there is room.
    func pollOnce() {
        let waiting = !tracker.isEmpty || rescanNeeded
        var handled = 0
        if let first = watcher.next(timeoutSeconds: waiting ? 0 : 1) {
            handle(first)
            handled = 1
            // Drain what is ready without waiting, but come back to settle files regularly.
            while handled < 1000, let event = watcher.next(timeoutSeconds: 0) {
                handle(event)
                handled += 1
            }
        }
        tick(force: false)
        if rescanNeeded && queue.freeCapacity * 2 >= config.queueCapacity && tracker.count * 2 < tracker.capacity {
            rescanNeeded = false
            logger.debug("rescanning the watched folders")
            for layout in layouts { watchAndScan(folder: layout.watch.path, layout: layout) }
        }
        if handled == 0 && waiting { usleep(20_000) }
    }

    private func handle(_ event: WatchEvent) {
        switch event {
        case .file(let path):
            consider(path, status: nil)
        case .folder(let path):
            if let layout = layouts.first(where: { $0.watchesFolder(path) }) { watchAndScan(folder: path, layout: layout) }
        case .overflow:
            logger.warning("the kernel's inotify queue overflowed; rescanning the watched folders")
            rescanNeeded = true
        }
    }

    /// Watches `folder` (and, for a recursive watch, its subfolders) and considers every file
    /// in it. Watching comes first, so a file landing during the scan is seen by one or the other.
    private func watchAndScan(folder: String, layout: WatchLayout) {
        guard layout.watchesFolder(folder) else { return }
        do throws(FileError) {
            try watcher.watch(folder: folder)
        } catch {
            let hint = error.errno == ENOSPC ? " (raise fs.inotify.max_user_watches)" : ""
            logger.error("\(error)\(hint)")
        }
        guard let names = FileIO.list(folder) else { return }
        for name in names.sorted() {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            guard let status = FileStatus.of(path) else { continue }
            if status.isDirectory {
                if layout.watch.recursive { watchAndScan(folder: path, layout: layout) }
            } else if status.isRegularFile {
                consider(path, status: status)
            }
        }
    }

    /// The watch a file belongs to: the deepest watched folder holding it.
    private func layout(for path: String) -> WatchLayout? {
        layouts.filter { $0.relativePath(of: path) != nil }.max { $0.watch.path.count < $1.watch.path.count }
    }

    /// Starts the settle wait for an input candidate.
    private func consider(_ path: String, status: FileStatus?) {
        guard let layout = layout(for: path), layout.accepts(path), !queue.contains(path) else { return }
        guard let current = status ?? FileStatus.of(path), current.isRegularFile else { return }
        if !tracker.observe(path, status: current, settleMilliseconds: layout.watch.settleMilliseconds,
                            now: DispatchTime.now().uptimeNanoseconds) {
            rescanNeeded = true
        }
    }

    /// Submits the files that have settled.
    private func tick(force: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard force || now >= lastTick + Self.tickNanoseconds, !tracker.isEmpty else { return }
        lastTick = now
        for path in tracker.settled(now: now, status: FileStatus.of) {
            guard let layout = layout(for: path), let relative = layout.relativePath(of: path) else { continue }
            let job = DaemonJob(path: path, relative: relative, layout: layout, limits: config.limits,
                                configSHA256: configSHA256, queuedAt: Date())
            if queue.submit(job, key: path) == .full { rescanNeeded = true }
        }
    }
}
