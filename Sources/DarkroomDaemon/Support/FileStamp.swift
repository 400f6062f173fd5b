/// Whether a name still holds the same file with the same content, as far as `stat(2)` can
/// tell — the one rule the settle check, the "changed while processed" check and the cluster's
/// claim check share: size, modification time, change time and inode all unchanged.
///
/// Each catches what the others miss. Size and modification time move with every ordinary
/// write. The change time (`st_ctime`) cannot be set back by any tool, so it catches a rewrite
/// that restores the old modification time (`cp -p`, `rsync -t`, `touch -d`, an archive
/// extracted over the file), and a rename into place updates it. The inode says the name now
/// holds another file (a writer that renames its temporary file over the name), which on a
/// shared folder written from another machine is often the only trace of the replacement.
/// A change of owner or mode moves the change time too; the file then merely settles again.
struct FileStamp: Sendable, Hashable {
    var size: Int64
    var modifiedNanoseconds: Int64
    /// Nil where it is not known: the cluster's job table records size, modification time and
    /// inode only (its key predates the change time); see ``recorded``.
    var changedNanoseconds: Int64?
    var inode: Int64

    init(size: Int64, modifiedNanoseconds: Int64, changedNanoseconds: Int64? = nil, inode: Int64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
        self.inode = inode
    }

    /// The part the cluster's job table records, to compare a claimed job's stamp with.
    var recorded: FileStamp { FileStamp(size: size, modifiedNanoseconds: modifiedNanoseconds, inode: inode) }

    /// The stamp of a regular file at `path` (a final link not followed); nil when it is gone or
    /// is something else.
    static func of(_ path: String) -> FileStamp? {
        guard let status = FileStatus.of(path), status.isRegularFile else { return nil }
        return status.stamp
    }

    /// The stamp of an open descriptor.
    static func of(descriptor fd: Int32) -> FileStamp? { FileStatus.of(descriptor: fd)?.stamp }
}
