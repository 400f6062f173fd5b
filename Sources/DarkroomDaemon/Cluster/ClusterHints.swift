import DarkroomCore
import Dispatch
import Logging

/// inotify as a hint in cluster mode: a file closed or moved into a watched folder by a process
/// on this machine makes the ingesting node scan at once instead of at the next
/// `scan_interval`. It is never the authority — writes from other machines raise no event on a
/// network share, and an event proves nothing about a file being complete — so the scan and
/// its settle rule decide as always; a hint only moves the scan earlier.
///
/// libinotifytools is one global instance per process and blocks in whole seconds, so it lives
/// on a thread of its own; the scanner takes the hinted watch names at each tick. Without
/// inotify (the kernel's instance limit, say) the scans alone find files, as before.
final class ClusterHints: Sendable {
    /// Watched folders (each watch's own folder) by path, with the watch's name; the generation
    /// tells the thread to install them again.
    private let folders = Locked((generation: 0, names: [String: String]()))
    private let hinted = Locked(Set<String>())
    private let stopping = Locked(false)
    private let finished = DispatchGroup()

    /// Watches `layouts`' folders from a thread of its own.
    init(layouts: [WatchLayout], logger: Logger) {
        watch(layouts)
        DedicatedThread.start(name: "darkroom-hints", group: finished) { [self] in run(logger: logger) }
    }

    /// The folders of a reloaded config.
    func watch(_ layouts: [WatchLayout]) {
        let names = Dictionary(layouts.map { ($0.watch.path, $0.watch.name) }, uniquingKeysWith: { a, _ in a })
        folders.withLock { $0 = (generation: $0.generation + 1, names: names) }
    }

    /// The watches with local events since the last call.
    func take() -> Set<String> { hinted.withLock { names in defer { names = [] }; return names } }

    /// Ends the thread (within a second).
    func stop() {
        stopping.withLock { $0 = true }
        _ = finished.wait(timeout: .now() + 2)
    }

    private func run(logger: Logger) {
        let watcher: InotifyWatcher
        do throws(FileError) { watcher = try InotifyWatcher() } catch {
            logger.notice("inotify is not available (\(error)); files are found by the scans alone")
            return
        }
        var installed = -1
        var names = [String: String]()
        while !stopping.current {
            let wanted = folders.current
            if wanted.generation != installed {
                try? watcher.removeAll()
                for folder in wanted.names.keys.sorted() { try? watcher.watch(folder: folder) }
                (installed, names) = (wanted.generation, wanted.names)
            }
            switch watcher.next(timeoutSeconds: 1) {
            case .file(let path):
                if let name = names[FileIO.parent(of: path)] { hinted.withLock { _ = $0.insert(name) } }
            case .overflow:
                hinted.withLock { $0.formUnion(names.values) }
            case .folder, .folderGone, nil:
                break
            }
        }
    }
}
