import Glibc

/// Plain reads, folder creation and removal with errors that carry errno.
public enum FileIO {
    /// The whole file. Refuses, before reading, a file larger than `maxBytes`, and anything but
    /// a regular file (a symbolic link, a FIFO: opened without following or blocking).
    public static func read(_ path: String, maxBytes: Int = .max) throws(FileReadError) -> [UInt8] {
        let fd = RawName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        guard fd >= 0 else { throw .system(FileError("read", path, errno: errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(FileError("read", path, errno: errno)) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .system(FileError("read", path, errno: EINVAL)) }
        return try readAll(fd, size: Int(st.st_size), maxBytes: maxBytes, path: path)
    }

    /// The `size` bytes of an open regular file (fewer if it shrank meanwhile).
    static func readAll(_ fd: Int32, size: Int, maxBytes: Int, path: String) throws(FileReadError) -> [UInt8] {
        guard size <= maxBytes else { throw .tooLarge(size: size) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, size - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(FileError("read", path, errno: errno))
            }
            if n == 0 { break }  // shrank while reading: hash and decode what is there
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

    /// The first `count` bytes of an open file (fewer when it is shorter), read with `pread`,
    /// leaving the descriptor's offset alone.
    static func readHead(_ fd: Int32, count: Int, path: String) throws(FileReadError) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: count)
        while true {
            let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .system(FileError("read", path, errno: errno)) }
            head.removeLast(count - n)
            return head
        }
    }

    /// A small file read to its end, for files whose size `stat` does not tell (`/proc`,
    /// `/sys`); nil when it cannot be read or holds more than `maxBytes`.
    public static func readToEnd(_ path: String, maxBytes: Int) -> [UInt8]? {
        let fd = RawName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](), chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maxBytes {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? bytes : nil }
            bytes += chunk[..<n]
        }
        return nil
    }

    /// Creates `path` and any missing parents (like `mkdir -p`).
    public static func createDirectory(_ path: String) throws(FileError) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if RawName.withCString(current, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw FileError("create folder", current, errno: errno)
            }
        }
        guard FileStatus.of(path)?.isDirectory == true else {
            throw FileError("create folder", path, errno: ENOTDIR)
        }
    }

    /// Removes a file; a file already gone is not an error.
    public static func remove(_ path: String) throws(FileError) {
        if RawName.withCString(path, { unlink($0) }) != 0 && errno != ENOENT { throw FileError("delete", path, errno: errno) }
    }

    /// The parent folder of an absolute path.
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    public static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The names in a folder, without `.` and `..`; nil when it cannot be listed.
    public static func list(_ directory: String) -> [String]? {
        guard let dir = RawName.withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names = [String]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                RawName.string(fromBytes: raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Why a file could not be read whole.
public enum FileReadError: Error, Sendable, Equatable {
    case system(FileError)
    case tooLarge(size: Int)
}
