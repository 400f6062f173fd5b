import Glibc

/// What `stat(2)` says about a path, reduced to what the watcher, the settle check and the jobs
/// need; ``stamp`` is the part that says whether it is still the same file (``FileStamp``).
public struct FileStatus: Sendable, Equatable {
    public var size: Int
    /// Modification time in nanoseconds since the epoch.
    public var modifiedNanoseconds: Int64
    public var isRegularFile: Bool
    public var isDirectory: Bool
    /// Status change time (`st_ctime`) in nanoseconds since the epoch: unlike the modification
    /// time, no tool can set it back, and a rename into a folder updates it.
    public var changedNanoseconds: Int64
    public var inode: Int64

    public init(size: Int, modifiedNanoseconds: Int64, isRegularFile: Bool, isDirectory: Bool,
                changedNanoseconds: Int64 = 0, inode: Int64 = 0) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
        self.isRegularFile = isRegularFile
        self.isDirectory = isDirectory
        self.inode = inode
    }

    /// The status of `path` without following a final symbolic link; nil when it is gone.
    public static func of(_ path: String) -> FileStatus? {
        var st = stat()
        guard RawName.withCString(path, { lstat($0, &st) }) == 0 else { return nil }
        return FileStatus(st)
    }

    /// The status of an open descriptor; nil when `fstat` fails.
    static func of(descriptor fd: Int32) -> FileStatus? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// The status `stat(2)` or `fstat(2)` filled in.
    init(_ st: stat) {
        let type = st.st_mode & S_IFMT
        self.init(size: Int(st.st_size),
                  modifiedNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                  isRegularFile: type == S_IFREG, isDirectory: type == S_IFDIR,
                  changedNanoseconds: Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec),
                  inode: Int64(bitPattern: UInt64(st.st_ino)))
    }

    /// Size, modification and change time, inode: see ``FileStamp`` for why these.
    var stamp: FileStamp {
        FileStamp(size: Int64(size), modifiedNanoseconds: modifiedNanoseconds, changedNanoseconds: changedNanoseconds,
                  inode: inode)
    }
}
