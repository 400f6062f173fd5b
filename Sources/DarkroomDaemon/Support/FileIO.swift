import Glibc

/// Plain reads, folder creation and removal with errors that carry errno.
public enum FileIO {
    /// The whole file. Refuses, before reading, a file larger than `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = .max) throws(FileReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(FileError("read", path, errno: errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(FileError("read", path, errno: errno)) }
        let size = Int(st.st_size)
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

    /// Creates `path` and any missing parents (like `mkdir -p`).
    public static func createDirectory(_ path: String) throws(FileError) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FileError("create folder", current, errno: errno)
            }
        }
        guard FileStatus.of(path)?.isDirectory == true else {
            throw FileError("create folder", path, errno: ENOTDIR)
        }
    }

    /// Removes a file; a file already gone is not an error.
    public static func remove(_ path: String) throws(FileError) {
        if unlink(path) != 0 && errno != ENOENT { throw FileError("delete", path, errno: errno) }
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
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names = [String]()
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
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
