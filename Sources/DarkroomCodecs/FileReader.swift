#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with POSIX calls, checking the size limit on the open descriptor first so a
/// huge file is refused before any of it is read.
enum FileReader {
    static func contents(atPath path: String, maxBytes: Int) throws(CodecError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("cannot stat \(path)") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CodecError(code: .io, message: "\(path) is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw CodecError(code: .tooLarge, message: "\(path) is \(size) bytes, over the limit of \(maxBytes) bytes")
        }
        // One byte of slack detects a file that grew past the limit after fstat.
        let capacity = size + 1
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var filled = 0
            while filled < capacity {
                let n = read(fd, buffer.baseAddress! + filled, capacity - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                filled += n
            }
            initialized = filled
        }
        if failure != 0 { throw CodecError(code: .io, message: "cannot read \(path): \(String(cString: strerror(failure)))") }
        guard bytes.count <= maxBytes else {
            throw CodecError(code: .tooLarge, message: "\(path) is over the limit of \(maxBytes) bytes")
        }
        return bytes
    }

    private static func ioError(_ what: String) -> CodecError {
        CodecError(code: .io, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
