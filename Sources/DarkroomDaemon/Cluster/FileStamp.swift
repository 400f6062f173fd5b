import Glibc

/// What a scan knows of a file on a shared folder: size, modification time and inode. Two scans
/// that see the same stamp at least `settle_ms` apart mean no one wrote to it in between (a
/// writer on another machine is invisible to inotify and to leases); a new inode means the
/// name now holds another file.
struct FileStamp: Sendable, Hashable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var inode: Int64

    /// The stamp of `path` without following a final link; nil when gone or not a regular file.
    static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard RawName.withCString(path, { lstat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStamp(st)
    }

    /// The stamp of an open descriptor.
    static func of(descriptor fd: Int32) -> FileStamp? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return FileStamp(st)
    }

    init(size: Int64, modifiedNanoseconds: Int64, inode: Int64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }

    init(_ st: stat) {
        size = Int64(st.st_size)
        modifiedNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        inode = Int64(bitPattern: UInt64(st.st_ino))
    }
}
