import Foundation
import Glibc

/// Writes a file so that readers see either the old file or the whole new one, never a part:
/// the bytes go to a hidden temporary name in the target folder, are flushed to disk, and the
/// temporary file is renamed over the target (rename is atomic within a file system). The
/// folder is flushed too, so the rename survives a power cut. On any failure the temporary
/// file is removed.
public enum AtomicFile {
    /// The prefix and suffix of temporary names: hidden and `.tmp`, so no watcher takes them.
    static let temporaryPrefix = ".darkroom-"
    static let temporarySuffix = ".tmp"

    /// `durable: false` skips the flushes, for files rewritten so often (the daemon's state
    /// file) that the next write replaces a lost one anyway; the rename stays atomic.
    public static func write(_ bytes: [UInt8], to path: String, createFolder: Bool = true, durable: Bool = true) throws(FileError) {
        let folder = FileIO.parent(of: path)
        if createFolder { try FileIO.createDirectory(folder) }
        var template = Array("\(folder)/\(temporaryPrefix)\(FileIO.fileName(of: path)).XXXXXX\(temporarySuffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer {
            mkstemps($0.baseAddress!, Int32(temporarySuffix.utf8.count))
        }
        guard fd >= 0 else { throw FileError("write", path, errno: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Closed exactly once: a second close could hit a descriptor another thread just opened.
        var isOpen = true
        do throws(FileError) {
            try writeAll(bytes, to: fd, path: path)
            // mkstemp creates 0600; outputs and reports are for others to read.
            fchmod(fd, 0o644)
            guard !durable || fsync(fd) == 0 else { throw FileError("write", path, errno: errno) }
            isOpen = false
            guard close(fd) == 0 else { throw FileError("write", path, errno: errno) }
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileError("write", path, errno: code)
        }
        if durable { syncDirectory(folder) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(FileError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError("write", path, errno: errno)
            }
            done += n
        }
    }

    /// Flushes a folder's entries (best effort: some file systems refuse, which loses nothing).
    static func syncDirectory(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes temporary files a killed process left below `folder` (a `kill -9` between
    /// create and rename). Only names this type makes are touched. Returns how many went.
    @discardableResult
    public static func removeLeftovers(below folder: String) -> Int {
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var removed = 0
        while let relative = walk.nextObject() as? String {
            let name = FileIO.fileName(of: relative)
            guard name.hasPrefix(temporaryPrefix), name.hasSuffix(temporarySuffix) else { continue }
            if unlink(folder + "/" + relative) == 0 { removed += 1 }
        }
        return removed
    }
}
