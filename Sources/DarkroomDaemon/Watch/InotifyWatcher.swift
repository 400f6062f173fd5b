import CInotifyTools
import Dispatch
import Glibc

/// What the kernel reported about a watched folder, reduced to what the daemon acts on.
public enum WatchEvent: Equatable, Sendable {
    /// A file was closed after writing or moved in: a candidate input.
    case file(String)
    /// A folder was created or moved in: watch it and scan it (files may land before the watch).
    case folder(String)
    /// A watched folder is gone (deleted, moved away or unmounted); it is no longer watched.
    case folderGone(String)
    /// The kernel's event queue overflowed: events were lost, rescan everything.
    case overflow
}

/// The daemon's inotify instance, through libinotifytools.
///
/// libinotifytools keeps one instance per process in global state and is not thread-safe, so
/// exactly one `InotifyWatcher` exists while the daemon runs and only the watcher thread uses
/// it. Folders are watched one by one (the daemon walks the tree itself, so the walk that
/// watches also scans and skips excluded folders). Files are announced on `IN_CLOSE_WRITE` and
/// `IN_MOVED_TO` only, never on `IN_CREATE`: a created file is still being written.
final class InotifyWatcher {
    static let folderEvents = Int32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ONLYDIR)

    /// The watched folders by watch descriptor, kept here because libinotifytools forgets a
    /// watch before handing out its `IN_IGNORED`, and that event must still name the folder.
    private var folders = [Int32: String]()
    var watchedFolders: Set<String> { Set(folders.values) }

    /// Whether `folder` is watched now.
    func isWatching(_ folder: String) -> Bool { folders.values.contains(folder) }

    /// Starts the instance; nil with errno when the kernel refuses (too many instances).
    init() throws(FileError) {
        guard inotifytools_initialize() != 0 else {
            throw FileError("start inotify for", "the watched folders", errno: Int32(inotifytools_error()))
        }
    }

    deinit { inotifytools_cleanup() }

    /// Watches one folder (not its subfolders). Watching a folder twice is harmless.
    func watch(folder: String) throws(FileError) {
        guard !isWatching(folder) else { return }
        guard inotifytools_watch_file(folder, Self.folderEvents) != 0 else {
            throw FileError("watch", folder, errno: Int32(inotifytools_error()))
        }
        let wd = inotifytools_wd_from_filename(folder + "/")
        folders[wd >= 0 ? wd : inotifytools_wd_from_filename(folder)] = folder
    }

    /// Drops every watch (before a reload installs the new ones).
    func removeAll() throws(FileError) {
        inotifytools_cleanup()
        folders.removeAll()
        guard inotifytools_initialize() != 0 else {
            throw FileError("restart inotify for", "the watched folders", errno: Int32(inotifytools_error()))
        }
    }

    /// The next event, waiting up to `timeoutSeconds` (at least 1: libinotifytools 3.22 waits
    /// in whole seconds and treats 0 as "forever"); nil when none came. Events the daemon does
    /// not act on (a plain `IN_CREATE`, a removed watch) are skipped.
    func next(timeoutSeconds: Int) -> WatchEvent? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(1, timeoutSeconds)) * 1_000_000_000
        while let event = inotifytools_next_event(max(1, timeoutSeconds)) {
            if let mapped = map(event) { return mapped }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return nil }
        }
        return nil
    }

    private func map(_ event: UnsafeMutablePointer<inotify_event>) -> WatchEvent? {
        let mask = event.pointee.mask
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflow }
        if mask & UInt32(IN_IGNORED) != 0 {
            // The folder is gone (deleted or unmounted); forget it so it is watched again if it
            // comes back.
            return folders.removeValue(forKey: event.pointee.wd).map { .folderGone($0) }
        }
        guard event.pointee.len > 0, let folder = folderName(wd: event.pointee.wd) else { return nil }
        let name = String(cString: UnsafeRawPointer(event).advanced(by: MemoryLayout<inotify_event>.size)
            .assumingMemoryBound(to: CChar.self))
        let path = folder == "/" ? "/" + name : folder + "/" + name
        let isFolder = mask & UInt32(IN_ISDIR) != 0
        if isFolder { return mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 ? .folder(path) : nil }
        return mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 ? .file(path) : nil
    }

    /// The watched folder of a watch descriptor, without a trailing slash.
    private func folderName(wd: Int32) -> String? {
        guard let raw = inotifytools_filename_from_wd(wd) else { return nil }
        var name = String(cString: raw)
        while name.count > 1 && name.hasSuffix("/") { name.removeLast() }
        return name
    }
}
