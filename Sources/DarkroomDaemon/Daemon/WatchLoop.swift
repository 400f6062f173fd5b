import DarkroomConfig
import Dispatch
import Foundation
import Logging

/// Turns inotify events and folder scans into settled files submitted to the job queue.
///
/// Two threads share it. The thread calling ``Daemon/run()`` owns inotify (libinotifytools is
/// not thread-safe): it waits for events, watches new folders and rescans. A timer on a serial
/// Dispatch queue checks every 50 ms which files have settled and submits them. They share
/// only `shared`, behind its lock.
final class WatchLoop: Sendable {
    /// Touched only by the inotify thread (see the type's comment), hence `nonisolated(unsafe)`.
    private nonisolated(unsafe) let watcher: InotifyWatcher
    private let queue: JobQueue<DaemonJob>
    private let logger: Logger
    private let shared: Locked<Shared>
    private let timerQueue = DispatchQueue(label: "darkroom.settle")
    private nonisolated(unsafe) var timer: (any DispatchSourceTimer)?
    static let tickMilliseconds = 50

    private struct Shared: Sendable {
        var watches: WatchSet
        var tracker: SettleTracker
        /// Files may be waiting unseen because the queue or the tracker was full: the folders'
        /// files are listed again (by the settle timer) once there is room.
        var rescanNeeded = false
        /// The kernel dropped events, so folders may be unwatched too: the inotify thread
        /// watches and scans everything again.
        var fullRescanNeeded = false
        /// Watched folders (of watches) deleted while running, waiting to come back.
        var goneFolders = Set<String>()
    }

    init(queue: JobQueue<DaemonJob>, logger: Logger) throws(FileError) {
        watcher = try InotifyWatcher()
        self.queue = queue
        self.logger = logger
        shared = Locked(Shared(watches: WatchSet(layouts: [], limits: Limits(), configSHA256: ""),
                               tracker: SettleTracker(capacity: 1)))
        // A file rewritten while it waited or ran starts a new settle wait once its job is done.
        queue.onChangeWhileQueued { [weak self] path in self?.consider(path, status: nil) }
    }

    deinit { timer?.cancel() }

    /// Number of watches in use (a watch whose folders cannot be created is left out).
    var activeWatchCount: Int { shared.current.watches.layouts.count }

    /// Installs `config`: drops every watch and every settling file, creates the folders,
    /// watches them and considers what is already there (files dropped from the tracker are
    /// found again). Queued jobs keep the config they were queued under. Inotify thread only.
    func install(_ config: DaemonConfig) throws(FileError) {
        if !watcher.watchedFolders.isEmpty { try watcher.removeAll() }
        var layouts = [WatchLayout]()
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
        shared.withLock { s in
            s.watches = WatchSet(layouts: layouts, limits: config.limits, configSHA256: SHA256.hex(config.sourceText))
            s.tracker = SettleTracker(capacity: config.queueCapacity)
            s.rescanNeeded = false
            s.fullRescanNeeded = false
            s.goneFolders = []
        }
        queue.setLimits(capacity: config.queueCapacity, workers: config.workers)
        for layout in layouts { watchAndScan(folder: layout.watch.path, layout: layout) }
        startTimer()
    }

    /// Waits up to a second for an event and handles it; after an overflow, watches and scans
    /// everything again. Inotify thread only.
    func pollOnce() {
        if let event = watcher.next(timeoutSeconds: 1) { handle(event) }
        let rescan: [WatchLayout]? = shared.withLock { s in
            guard s.fullRescanNeeded else { return nil }
            s.fullRescanNeeded = false
            return s.watches.layouts
        }
        for layout in rescan ?? [] { watchAndScan(folder: layout.watch.path, layout: layout) }
        rewatchReturnedFolders()
    }

    /// Watches again a watched folder that was deleted and has come back (the daemon does not
    /// create it itself: it may be a mount point waiting for its file system). Inotify thread only.
    private func rewatchReturnedFolders() {
        let (layouts, gone) = shared.withLock { ($0.watches.layouts, $0.goneFolders) }
        guard !gone.isEmpty else { return }
        for layout in layouts where gone.contains(layout.watch.path) {
            guard FileStatus.of(layout.watch.path)?.isDirectory == true else { continue }
            shared.withLock { _ = $0.goneFolders.remove(layout.watch.path) }
            logger.notice("watch \(layout.watch.name): \(layout.watch.path) is back; watching it again")
            watchAndScan(folder: layout.watch.path, layout: layout)
        }
    }

    /// Stops submitting settled files (at shutdown).
    func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    private func handle(_ event: WatchEvent) {
        switch event {
        case .file(let path):
            consider(path, status: nil)
        case .folder(let path):
            let layouts = shared.current.watches.layouts
            if let layout = layouts.first(where: { $0.watchesFolder(path) }) { watchAndScan(folder: path, layout: layout) }
        case .folderGone(let path):
            let layouts = shared.current.watches.layouts
            if let layout = layouts.first(where: { $0.watch.path == path }) {
                shared.withLock { _ = $0.goneFolders.insert(path) }
                logger.error("watch \(layout.watch.name): \(path) disappeared; it is watched again when it comes back")
            }
        case .overflow:
            logger.warning("the kernel's inotify queue overflowed; rescanning the watched folders")
            shared.withLock { $0.fullRescanNeeded = true }
        }
    }

    /// Watches `folder` (and, for a recursive watch, its subfolders) and considers every file
    /// in it. Watching comes first, so a file landing during the scan is seen by one or the
    /// other. Inotify thread only.
    private func watchAndScan(folder: String, layout: WatchLayout) {
        scan(folder: folder, layout: layout) { folder in
            do throws(FileError) {
                try watcher.watch(folder: folder)
            } catch {
                let hint = error.errno == ENOSPC ? " (raise fs.inotify.max_user_watches)" : ""
                logger.error("\(error)\(hint)")
            }
        }
    }

    /// Considers every file in `folder` and, for a recursive watch, its subfolders, calling
    /// `visit` on each folder first. Returns false when it stopped early (see `rescan`).
    ///
    /// With `rescan` (the settle timer looking again for files left out because the queue or
    /// the tracker was full), files whose report is newer than their last change are passed
    /// over: they are done (kept in place, or left there by a failed move), and taking them
    /// again would fill the tracker with them at every rescan, so the files after them would
    /// never be reached. The rescan also stops at the first file the tracker refuses. Start-up
    /// and overflow scans take every file, so the processed-once check finishes what a crash
    /// left half-tidied.
    @discardableResult
    private func scan(folder: String, layout: WatchLayout, rescan: Bool = false, visit: (String) -> Void) -> Bool {
        guard layout.watchesFolder(folder) else { return true }
        visit(folder)
        guard let names = FileIO.list(folder) else { return true }
        for name in names.sorted() {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            // Cheap checks first: a folder of thousands of waiting files is listed again and again.
            if queue.contains(path) || shared.withLock({ $0.tracker.contains(path) }) { continue }
            guard let status = FileStatus.of(path) else { continue }
            if status.isDirectory {
                if layout.watch.recursive, !scan(folder: path, layout: layout, rescan: rescan, visit: visit) { return false }
            } else if status.isRegularFile {
                if rescan && Self.isReported(path, status: status, layout: layout) { continue }
                if consider(path, status: status) == .full && rescan { return false }
            }
        }
        return true
    }

    /// Whether `path` has a report written after the file last changed.
    static func isReported(_ path: String, status: FileStatus, layout: WatchLayout) -> Bool {
        guard let relative = layout.relativePath(of: path),
              let report = FileStatus.of(layout.reportPath(forRelative: relative)) else { return false }
        return report.changedNanoseconds > status.changedNanoseconds
    }

    /// What ``consider(_:status:)`` did with a file.
    private enum Consideration { case settling, ignored, full }

    /// Starts the settle wait for an input candidate.
    @discardableResult
    private func consider(_ path: String, status: FileStatus?) -> Consideration {
        guard !queue.noteChange(path), let current = status ?? FileStatus.of(path), current.isRegularFile else { return .ignored }
        let now = DispatchTime.now().uptimeNanoseconds
        return shared.withLock { s in
            guard let layout = s.watches.layout(for: path), layout.accepts(path) else { return .ignored }
            guard s.tracker.observe(path, status: current, settleMilliseconds: layout.watch.settleMilliseconds, now: now) else {
                s.rescanNeeded = true
                return .full
            }
            return .settling
        }
    }

    private func startTimer() {
        guard timer == nil else { return }
        let t = DispatchSource.makeTimerSource(queue: timerQueue)
        t.schedule(deadline: .now(), repeating: .milliseconds(Self.tickMilliseconds), leeway: .milliseconds(10))
        t.setEventHandler { [weak self] in self?.submitSettled() }
        t.resume()
        timer = t
    }

    /// Submits the files that have settled; a full queue leaves them for a rescan, which
    /// happens here once the queue has room again. Settle timer only.
    private func submitSettled() {
        let rescan: [WatchLayout]? = shared.withLock { s in
            guard s.rescanNeeded, queue.freeCapacity * 2 >= s.tracker.capacity,
                  s.tracker.count * 2 < s.tracker.capacity else { return nil }
            s.rescanNeeded = false
            return s.watches.layouts
        }
        for layout in rescan ?? [] {
            guard scan(folder: layout.watch.path, layout: layout, rescan: true, visit: { _ in }) else { break }
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let (paths, watches) = shared.withLock { s in
            (s.tracker.isEmpty ? [] : s.tracker.settled(now: now, status: FileStatus.of), s.watches)
        }
        var full = false
        for path in paths {
            guard let layout = watches.layout(for: path), let relative = layout.relativePath(of: path) else { continue }
            let job = DaemonJob(path: path, relative: relative, layout: layout, limits: watches.limits,
                                configSHA256: watches.configSHA256, queuedAt: Date())
            if queue.submit(job, key: path) == .full { full = true }
        }
        if full { shared.withLock { $0.rescanNeeded = true } }
    }
}
