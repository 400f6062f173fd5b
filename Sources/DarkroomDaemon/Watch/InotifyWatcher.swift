import CInotifyTools
import Dispatch
import Glibc

/// What the kernel reported about a watched folder, reduced to what the daemon acts on.
public enum WatchEvent: Equatable, Sendable {
    /// A file was closed after writing or moved in: a candidate input.
    case file(String)
    /// A folder was created or moved in (or renamed inside a watched folder): watch it and scan
    /// it (files may land before the watch).
    case folder(String)
    /// A watched folder is gone (deleted, moved away or unmounted); it and its subfolders are
    /// no longer watched.
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
///
/// A watch follows its folder's inode, not its name: a watched folder moved elsewhere would
/// go on reporting events under its old name. So the folder names are kept here, by watch
/// descriptor, and a folder that is moved (`IN_MOVED_FROM` in its parent, `IN_MOVE_SELF`) or
/// deleted (`IN_DELETE_SELF`) loses its watches and those of every folder below it; its new
/// name, when it stays inside a watch, is watched afresh (`IN_MOVED_TO`).
final class InotifyWatcher {
    static let folderEvents = Int32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE
                                    | IN_MOVE_SELF | IN_DELETE_SELF | IN_ONLYDIR)

    /// The watched folders by watch descriptor: the one source of folder names for events.
    private var folders = [Int32: String]()
    var watchedFolders: Set<String> { Set(folders.values) }

    /// Whether `folder` is watched now.
    func isWatching(_ folder: String) -> Bool { folders.values.contains(folder) }

    /// Starts the instance; throws when the kernel refuses (too many instances).
    init() throws(FileError) {
        guard inotifytools_initialize() != 0 else {
            throw FileError("start inotify for", "the watched folders", errno: Int32(inotifytools_error()))
        }
    }

    deinit { inotifytools_cleanup() }

    /// Watches one folder (not its subfolders). Watching a folder twice is harmless.
    func watch(folder: String) throws(FileError) {
        guard !isWatching(folder) else { return }
        guard RawName.withCString(folder, { inotifytools_watch_file($0, Self.folderEvents) }) != 0 else {
            throw FileError("watch", folder, errno: Int32(inotifytools_error()))
        }
        var wd = RawName.withCString(folder + "/") { inotifytools_wd_from_filename($0) }
        if wd < 0 { wd = RawName.withCString(folder) { inotifytools_wd_from_filename($0) } }
        folders[wd] = folder
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
        let mask = event.pointee.mask, wd = event.pointee.wd
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflow }
        if mask & UInt32(IN_IGNORED | IN_DELETE_SELF) != 0 {
            // Deleted or unmounted: the kernel has dropped this watch itself (libinotifytools
            // forgets it on IN_IGNORED); a deleted folder's subfolders were deleted before it.
            guard let folder = folders.removeValue(forKey: wd) else { return nil }
            return .folderGone(folder)
        }
        if mask & UInt32(IN_MOVE_SELF) != 0 {
            // Still known: moved with no watched parent to say so first. The watch would
            // follow it to its new place, so it goes, with those below it.
            guard let folder = folders[wd] else { return nil }
            dropWatches(below: folder)
            return .folderGone(folder)
        }
        guard event.pointee.len > 0, let folder = folders[wd] else { return nil }
        let name = UnsafeRawPointer(event).advanced(by: MemoryLayout<inotify_event>.size)
            .withMemoryRebound(to: UInt8.self, capacity: Int(event.pointee.len)) { start in
                let bytes = UnsafeBufferPointer(start: start, count: Int(event.pointee.len))
                return RawName.string(fromBytes: bytes.prefix { $0 != 0 })
            }
        let path = folder == "/" ? "/" + name : folder + "/" + name
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_MOVED_FROM) != 0 {
                dropWatches(below: path)  // renamed or moved out; a new name comes as IN_MOVED_TO
                return nil
            }
            return mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 ? .folder(path) : nil
        }
        return mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 ? .file(path) : nil
    }

    /// Removes the watches of `folder` and of every folder below it.
    private func dropWatches(below folder: String) {
        for (wd, path) in folders where path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/") {
            inotifytools_remove_watch_by_wd(wd)
            folders[wd] = nil
        }
    }
}
