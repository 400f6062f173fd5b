import CLinuxFiles
import Foundation
import Glibc

/// Writes a file so that readers see either the old file or the whole new one, never a part:
/// the bytes go to a hidden temporary name in the target folder, are flushed to disk, and the
/// temporary file is renamed over the target (rename is atomic within a file system). The
/// folder is flushed too, so the rename survives a power cut. On any failure the temporary
/// file is removed.
///
/// Temporary names are short and of their own (`.dr-1a2b3c4d.tmp`), never derived from the
/// target's name: a target name of 255 bytes must still have a temporary name that fits.
public enum AtomicFile {
    /// The prefix and suffix of temporary names: hidden and `.tmp`, so no watcher takes them.
    static let temporaryPrefix = ".dr-"
    static let temporarySuffix = ".tmp"
    /// The prefix earlier versions used (`.darkroom-NAME.XXXXXX.tmp`); their leftovers are removed too.
    static let legacyTemporaryPrefix = ".darkroom-"

    /// How the finished file takes its place.
    public enum Placement: Sendable {
        /// Replaces whatever is at the target.
        case replace
        /// Fails with `EEXIST` when the target exists (checked atomically, by the kernel).
        case keepExisting
    }

    /// `durable: false` skips the flushes, for files rewritten so often (the daemon's state
    /// file) that the next write replaces a lost one anyway; the rename stays atomic.
    public static func write(_ bytes: [UInt8], to path: String, createFolder: Bool = true,
                             placement: Placement = .replace,
                             attribute: (name: String, value: String)? = nil, durable: Bool = true) throws(FileError) {
        let folder = FileIO.parent(of: path)
        if createFolder { try FileIO.createDirectory(folder) }
        let (fd, temporary) = try createTemporary(in: folder, for: path)
        // Closed exactly once: a second close could hit a descriptor another thread just opened.
        var isOpen = true
        do throws(FileError) {
            try writeAll(bytes, to: fd, path: path)
            // Created 0600; outputs and reports are for others to read.
            fchmod(fd, 0o644)
            if let attribute { setAttribute(fd, attribute.name, attribute.value) }
            guard !durable || fsync(fd) == 0 else { throw FileError("write", path, errno: errno) }
            isOpen = false
            guard close(fd) == 0 else { throw FileError("write", path, errno: errno) }
            try place(temporary, at: path, placement)
        } catch {
            if isOpen { close(fd) }
            _ = RawName.withCString(temporary) { unlink($0) }
            throw error
        }
        if durable { syncDirectory(folder) }
    }

    /// A temporary file filled by someone else (an encoder writing as it goes) before it is
    /// placed: ``begin(for:)``, fill ``descriptor``, ``seal(_:attribute:)``, then ``place(_:at:_:)``
    /// (as often as a free name takes) and ``syncDirectory(_:)``; ``discard(_:)`` whatever happens.
    public final class Temporary: @unchecked Sendable {  // used by one job's thread only
        public let descriptor: Int32
        let path: String
        let folder: String
        private var isOpen = true

        fileprivate init(descriptor: Int32, path: String, folder: String) {
            (self.descriptor, self.path, self.folder) = (descriptor, path, folder)
        }

        /// Closes the descriptor once (a second close could hit a descriptor another thread just opened).
        fileprivate func close() -> Int32 {
            guard isOpen else { return 0 }
            isOpen = false
            return Glibc.close(descriptor)
        }

        deinit { _ = close() }
    }

    /// A new temporary file in the folder `path` will be placed in (made when missing).
    static func begin(for path: String) throws(FileError) -> Temporary {
        let folder = FileIO.parent(of: path)
        try FileIO.createDirectory(folder)
        let (fd, temporary) = try createTemporary(in: folder, for: path)
        return Temporary(descriptor: fd, path: temporary, folder: folder)
    }

    /// Makes a filled temporary file ready to be placed: readable by others, its attribute
    /// set, flushed to disk (unless not `durable`) and closed.
    static func seal(_ file: Temporary, attribute: (name: String, value: String)?, target: String,
                     durable: Bool = true) throws(FileError) {
        fchmod(file.descriptor, 0o644)
        if let attribute { setAttribute(file.descriptor, attribute.name, attribute.value) }
        guard !durable || fsync(file.descriptor) == 0 else { throw FileError("write", target, errno: errno) }
        guard file.close() == 0 else { throw FileError("write", target, errno: errno) }
    }

    /// Removes the temporary file unless it was placed (its name is then gone or another's).
    static func discard(_ file: Temporary, placed: Bool) {
        _ = file.close()
        if !placed { _ = RawName.withCString(file.path) { unlink($0) } }
    }

    /// A new, empty, exclusive temporary file in `folder`.
    static func createTemporary(in folder: String, for path: String) throws(FileError) -> (Int32, String) {
        while true {
            let name = temporaryPrefix + String(UInt32.random(in: 0...UInt32.max), radix: 16) + temporarySuffix
            let temporary = folder == "/" ? "/" + name : folder + "/" + name
            let fd = RawName.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            if fd >= 0 { return (fd, temporary) }
            if errno != EEXIST { throw FileError("write", path, errno: errno) }
        }
    }

    /// Renames the finished temporary file to `path`.
    static func place(_ temporary: String, at path: String, _ placement: Placement) throws(FileError) {
        let rc = RawName.withCString(temporary) { from in
            RawName.withCString(path) { to in
                placement == .replace ? rename(from, to)
                    : renameat2(AT_FDCWD, from, AT_FDCWD, to, UInt32(darkroom_RENAME_NOREPLACE))
            }
        }
        if rc == 0 { return }
        let code = errno
        guard placement == .keepExisting, code == EINVAL || code == ENOSYS else { throw FileError("write", path, errno: code) }
        // A file system without RENAME_NOREPLACE: a hard link fails just as atomically if the
        // name is taken.
        let linked = RawName.withCString(temporary) { from in RawName.withCString(path) { link(from, $0) } }
        guard linked == 0 else { throw FileError("write", path, errno: errno) }
        _ = RawName.withCString(temporary) { unlink($0) }
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(FileError) {
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

    /// Best effort: a file system without user attributes simply has none.
    static func setAttribute(_ fd: Int32, _ name: String, _ value: String) {
        let bytes = RawName.bytes(of: value)
        _ = bytes.withUnsafeBytes { fsetxattr(fd, name, $0.baseAddress, $0.count, 0) }
    }

    /// The value of the user attribute `name` of the file at `path`; nil when it has none or
    /// the file system keeps none.
    static func attribute(_ name: String, of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = RawName.withCString(path) { p in buffer.withUnsafeMutableBytes { lgetxattr(p, name, $0.baseAddress, $0.count) } }
        return n < 0 ? nil : RawName.string(fromBytes: buffer[..<n])
    }

    /// Flushes a folder's entries (best effort: some file systems refuse, which loses nothing).
    static func syncDirectory(_ folder: String) {
        let fd = RawName.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Whether `name` is one of the temporary names this type makes (or made in earlier versions).
    static func isTemporaryName(_ name: String) -> Bool {
        (name.hasPrefix(temporaryPrefix) || name.hasPrefix(legacyTemporaryPrefix)) && name.hasSuffix(temporarySuffix)
    }

    /// Removes temporary files a killed process left below `folder` (a `kill -9` between
    /// create and rename). Only names this type makes are touched; with `unchangedFor`, only
    /// those not modified for that many seconds (on a shared folder, younger ones may be
    /// another machine's writes in progress). Returns how many went.
    @discardableResult
    public static func removeLeftovers(below folder: String, unchangedFor seconds: Double? = nil) -> Int {
        guard let names = FileIO.list(folder) else { return 0 }
        let cutoff = seconds.map { Int64((Date().timeIntervalSince1970 - $0) * 1e9) }
        var removed = 0
        for name in names {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            if isTemporaryName(name) {
                if let cutoff, let status = FileStatus.of(path), status.modifiedNanoseconds > cutoff { continue }
                if RawName.withCString(path, { unlink($0) }) == 0 { removed += 1 }
            } else if FileStatus.of(path)?.isDirectory == true {
                removed += removeLeftovers(below: path, unchangedFor: seconds)
            }
        }
        return removed
    }
}
