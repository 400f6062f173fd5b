import Glibc

/// A small picture of an input or output, written by the daemon with the report (for the
/// contact sheet, docs/contact-sheet.md), with what tells whether it still shows the file: the
/// file's size, modification time and inode when the picture was made. These survive the
/// input's move into `done_dir` (a rename) and change with any rewrite, so a reader compares
/// them with `stat(2)` instead of hashing the file.
public struct ReportThumbnail: Codable, Sendable, Equatable {
    /// Where the picture is (`thumbnails_dir`).
    public var file: String
    /// The box it was fitted in (`thumbnails` in the watch's config).
    public var box: Int
    public var width: Int
    public var height: Int
    /// The file shown, as `stat(2)` gave it when the picture was made.
    public var fileBytes: Int64
    public var fileModifiedNanoseconds: Int64
    public var fileInode: Int64
    /// The encoded picture until it is written; not in the report.
    public var pending: [UInt8]?

    public init(file: String, box: Int, width: Int, height: Int, pending: [UInt8]?) {
        (self.file, self.box, self.width, self.height, self.pending) = (file, box, width, height, pending)
        (fileBytes, fileModifiedNanoseconds, fileInode) = (0, 0, 0)
    }

    enum CodingKeys: String, CodingKey {
        case file, box, width, height
        case fileBytes = "file_bytes", fileModifiedNanoseconds = "file_mtime_ns", fileInode = "file_inode"
    }

    /// Whether `stamp` is the file the picture was made from.
    func shows(_ stamp: FileStamp) -> Bool {
        stamp.size == fileBytes && stamp.modifiedNanoseconds == fileModifiedNanoseconds && stamp.inode == fileInode
    }

    /// Whether the regular file at `path` (a final link followed) is the one the picture shows.
    public func shows(fileAt path: String) -> Bool {
        var st = stat()
        guard RawName.withCString(path, { stat($0, &st) }) == 0 else { return false }
        let status = FileStatus(st)
        return status.isRegularFile && shows(status.stamp)
    }

    mutating func record(_ stamp: FileStamp) {
        (fileBytes, fileModifiedNanoseconds, fileInode) = (stamp.size, stamp.modifiedNanoseconds, stamp.inode)
    }
}
