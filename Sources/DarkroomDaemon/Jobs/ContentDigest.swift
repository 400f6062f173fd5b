import Foundation

/// The SHA-256 of an input, computed when first asked for content read into memory (a
/// thumbnail of an output never asks) and on a thread of its own for a file read in place (a
/// TIFF), from the moment it is opened: hashing a
/// large scan then goes on beside its decode instead of before it (352 MB took a quarter of a
/// second on one core, an eighth of the job). ``value()`` waits for it; the daemon asks
/// before the job only when a report is there to compare with (``ProcessedOnceRule``), and
/// every job asks before its report is written.
final class ContentDigest: @unchecked Sendable {
    // `result` is only touched with `condition` locked; it is set once.
    private let condition = NSCondition()
    private var result: Result<String, FileError>?

    /// The content read into memory, hashed when ``value()`` is first called.
    private let bytes: [UInt8]?

    /// A digest of `bytes`, computed on first use.
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Starts hashing the first `size` bytes of `descriptor` (read with `pread`, the offset is
    /// left alone). The descriptor must stay open until ``value()`` returned.
    init(descriptor: Int32, size: Int, path: String) {
        bytes = nil
        Thread.detachNewThread { [self] in
            let hashed: Result<String, FileError>
            if let hex = SHA256.hex(descriptor: descriptor, size: size) {
                hashed = .success(hex)
            } else {
                hashed = .failure(FileError("read", path, errno: errno))
            }
            condition.lock()
            result = hashed
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The digest as lowercase hex, waiting for it if it is still being computed; the read
    /// error when the file could not be read through.
    func value() throws(FileError) -> String {
        condition.lock()
        if result == nil, let bytes { result = .success(SHA256.hex(bytes)) }
        while result == nil { condition.wait() }
        let done = result!
        condition.unlock()
        return try done.get()
    }

    /// Waits for the hashing thread, if one reads a descriptor (it must not outlive it).
    func finishReading() {
        if bytes == nil { _ = try? value() }
    }
}
