import DarkroomConfig
import Foundation
import Logging

/// Turns inotify events and folder walks into candidates for the ``Intake``.
///
/// Owned by one thread, the one calling ``Daemon/run()`` (libinotifytools is not thread-safe):
/// nothing here is shared, so nothing here is locked. Files flow one way from here: to the
/// intake, which settles them and submits them to the queue.
final class WatchLoop {
    private let watcher: InotifyWatcher
    private let intake: Intake
    private let logger: Logger
    private var layouts = [WatchLayout]()
    /// Watched folders (of watches) deleted or moved away while running, waiting to come back.
    private var goneFolders = Set<String>()

    init(intake: Intake, logger: Logger) throws(FileError) {
        watcher = try InotifyWatcher()
        self.intake = intake
        self.logger = logger
    }

    /// Number of watches in use (a watch whose folders cannot be created is left out).
    var activeWatchCount: Int { layouts.count }

    /// Installs `config`: drops every watch and every settling file, creates the folders,
    /// watches them and offers what is already there (files dropped from the intake are
    /// found again). Queued jobs keep the config they were queued under.
    func install(_ config: DaemonConfig, queue: JobQueue<DaemonJob>) throws(FileError) {
        if !watcher.watchedFolders.isEmpty { try watcher.removeAll() }
        var installed = [WatchLayout]()
        for watch in config.watches {
            do throws(FileError) {
                try WatchFolders.create(for: watch)
            } catch {
                logger.error("watch \(watch.name): \(error); this watch is not started")
                continue
            }
            installed.append(WatchLayout(watch, among: config.watches))
        }
        layouts = installed
        goneFolders = []
        intake.install(WatchSet(layouts: installed, limits: config.limits, configSHA256: SHA256.hex(config.sourceText)),
                       capacity: config.queueCapacity)
        queue.setLimits(capacity: config.queueCapacity, workers: config.workers)
        for layout in installed { watchAndScan(folder: layout.watch.path, layout: layout) }
        intake.start()
    }

    /// Waits up to a second for an event and handles it, then watches again any watched folder
    /// that came back.
    func pollOnce() {
        if let event = watcher.next(timeoutSeconds: 1) { handle(event) }
        rewatchReturnedFolders()
    }

    /// Watches again a watched folder that was deleted or moved away and has come back (the
    /// daemon does not create it itself: it may be a mount point waiting for its file system).
    private func rewatchReturnedFolders() {
        guard !goneFolders.isEmpty else { return }
        for layout in layouts where goneFolders.contains(layout.watch.path) {
            guard FileStatus.of(layout.watch.path)?.isDirectory == true else { continue }
            goneFolders.remove(layout.watch.path)
            logger.notice("watch \(layout.watch.name): \(RawName.display(layout.watch.path)) is back; watching it again")
            watchAndScan(folder: layout.watch.path, layout: layout)
        }
    }

    private func handle(_ event: WatchEvent) {
        switch event {
        case .file(let path):
            intake.consider(path)
        case .folder(let path):
            if let layout = layouts.first(where: { $0.watchesFolder(path) }) { watchAndScan(folder: path, layout: layout) }
        case .folderGone(let path):
            // A subfolder of a recursive watch needs nothing: if it was renamed inside the
            // watch, its new name arrives as a folder of its own.
            guard let layout = layouts.first(where: { $0.watch.path == path }) else { return }
            goneFolders.insert(path)
            logger.error("watch \(layout.watch.name): \(RawName.display(path)) disappeared (deleted or moved away); it is watched again when a folder of that name comes back")
        case .overflow:
            logger.warning("the kernel's inotify queue overflowed; rescanning the watched folders")
            for layout in layouts where !goneFolders.contains(layout.watch.path) {
                watchAndScan(folder: layout.watch.path, layout: layout)
            }
        }
    }

    /// Watches `folder` (and, for a recursive watch, its subfolders) and offers every file in
    /// it. Watching comes first, so a file landing during the walk is seen by one or the other.
    private func watchAndScan(folder: String, layout: WatchLayout) {
        let files = FolderWalk.files(in: folder, layout: layout) { folder in
            do throws(FileError) {
                try watcher.watch(folder: folder)
            } catch {
                let hint = error.errno == ENOSPC ? " (raise fs.inotify.max_user_watches)" : ""
                logger.error("\(error)\(hint)")
            }
        }
        intake.offer(files)
    }
}
