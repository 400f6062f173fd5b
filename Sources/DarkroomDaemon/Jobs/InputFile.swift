import CLinuxFiles
import DarkroomCodecs
import Glibc

/// One input, opened once: every later step — hashing, the processed-once check, decoding —
/// uses the bytes read from this one descriptor, so the bytes that were hashed are the bytes
/// that were decoded, whatever is renamed over the path meanwhile.
///
/// The open never follows a symbolic link (`O_NOFOLLOW`) and never blocks (`O_NONBLOCK`: a
/// FIFO swapped in opens at once, and `fstat` then refuses it), so no name in an inbox can
/// publish a file from elsewhere or stop a worker.
///
/// With `lease`, the file is also held under a read lease (`F_SETLEASE`, `F_RDLCK`): the
/// kernel refuses it while anyone has the file open for writing, and breaks it when someone
/// opens the file for writing later. That is the daemon's test that a file is complete (see
/// docs/operations.md, "What darkroom guarantees"); ``leaseBroken`` tells the job to give up.
/// Closing the descriptor (when the object ends) releases the lease.
///
/// A TIFF is not read into memory: its decoders read it in place, from this descriptor
/// (``ImageInput``), so a large scan is never held whole. The lease keeps writers out as for
/// any input; where there is none, ``changedSinceOpen`` (asked before each output is placed)
/// catches a rewrite in place.
final class InputFile: Sendable {
    let descriptor: Int32
    /// The content as the decoders read it: in memory, or this file read in place.
    let content: ImageInput
    /// The SHA-256 of the content, read from the descriptor once (for a file read in place, on
    /// a thread of its own while the job goes on: ``sha256()`` waits for it).
    private let digest: ContentDigest
    /// What `fstat` said when it was opened.
    let status: FileStatus
    /// Whether the lease is held; false where the file system or permissions allow none.
    let leased: Bool

    /// Why an input could not be opened and read.
    enum OpenError: Error, Equatable {
        /// Gone before it was opened.
        case gone
        /// A symbolic link, FIFO, device or folder: not an input.
        case notRegularFile
        /// Someone has it open for writing: it is not complete yet.
        case beingWritten
        case tooLarge(size: Int)
        case system(FileError)
    }

    /// The lease could not be taken for a reason that will not pass (not the file's owner and
    /// no `CAP_LEASE`, or a file system without leases); the settle check alone decides then.
    static func leaseIsUnavailable(_ code: Int32) -> Bool { code == EACCES || code == EPERM || code == EINVAL || code == ENOSYS }

    /// Opens and reads `path` (at most `maxBytes`, or 16 times that for a TIFF read in place:
    /// ``DecodeLimits/maxBytes(inPlace:)``), taking a read lease when `lease` is set.
    /// `leaseUnavailable` hears the errno when leases cannot be had at all.
    /// `followLinks` only for a path a person named (`darkroom process ~/link.jpg`), never for
    /// a name found in an inbox.
    static func open(_ path: String, maxBytes: Int, lease: Bool, followLinks: Bool = false,
                     leaseUnavailable: (Int32) -> Void = { _ in }) throws(OpenError) -> InputFile {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW)
        let fd = RawName.withCString(path) { Glibc.open($0, flags) }
        guard fd >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw .gone
            case ELOOP: throw .notRegularFile
            // Someone holds a write lease (O_NONBLOCK makes open say so instead of waiting).
            case EWOULDBLOCK: throw .beingWritten
            case let code: throw .system(FileError("read", path, errno: code))
            }
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let code = errno; close(fd); throw .system(FileError("read", path, errno: code)) }
        guard st.st_mode & S_IFMT == S_IFREG else { close(fd); throw .notRegularFile }
        let size = Int(st.st_size)
        let head: [UInt8]
        do throws(FileReadError) {
            head = try FileIO.readHead(fd, count: ImageInput.headLength, path: path)
        } catch {
            close(fd)
            if case .system(let e) = error { throw .system(e) }
            throw .tooLarge(size: size)
        }
        let inPlace = ImageInput.readsInPlace(head: head)
        let limit = DecodeLimits(maxFileBytes: maxBytes).maxBytes(inPlace: ImageInput.takesInPlaceLimit(head: head))
        guard size <= limit else { close(fd); throw .tooLarge(size: size) }

        var leased = false
        if lease {
            ignoreLeaseBreakSignal
            if darkroom_take_read_lease(fd) == 0 {
                leased = true
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                close(fd)
                throw .beingWritten
            } else if leaseIsUnavailable(errno) {
                leaseUnavailable(errno)
            }
        }
        if inPlace {
            return InputFile(descriptor: fd, content: ImageInput(descriptor: fd, size: size, head: head),
                             digest: ContentDigest(descriptor: fd, size: size, path: path),
                             status: FileStatus(st), leased: leased)
        }
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try FileIO.readAll(fd, size: size, maxBytes: maxBytes, path: path)
        } catch {
            close(fd)
            switch error {
            case .tooLarge(let size): throw .tooLarge(size: size)
            case .system(let e): throw .system(e)
            }
        }
        return InputFile(descriptor: fd, content: ImageInput(bytes), digest: ContentDigest(bytes: bytes),
                         status: FileStatus(st), leased: leased)
    }

    private init(descriptor: Int32, content: ImageInput, digest: ContentDigest, status: FileStatus, leased: Bool) {
        self.descriptor = descriptor
        self.content = content
        self.digest = digest
        self.status = status
        self.leased = leased
    }

    /// Whether a file read in place was rewritten since it was opened (its ``FileStamp`` moved):
    /// its outputs would mix old and new content. Always false for a file read into memory,
    /// whose bytes cannot change.
    var changedSinceOpen: Bool {
        guard content.isInPlace else { return false }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return true }
        return FileStatus(st).stamp != status.stamp
    }

    /// The SHA-256 of the content (what `sha256sum` prints), waiting for it when the file is
    /// still being hashed; the read error when it could not be read through.
    func sha256() throws(FileError) -> String { try digest.value() }

    deinit {
        digest.finishReading()  // the hashing thread reads the descriptor until then
        close(descriptor)
    }

    /// Whether a writer opened the file since the lease was taken (the kernel then waits for
    /// us, up to `/proc/sys/fs/lease-break-time`, before letting the writer go on).
    /// Stays true once the lease was given up (``LeaseMonitor``).
    var leaseBroken: Bool { leased && darkroom_lease(descriptor) != F_RDLCK }

    /// A lease break is announced with SIGIO, whose default action ends the process; the
    /// daemon polls ``leaseBroken`` instead, so the signal is ignored (once, process-wide).
    private static let ignoreLeaseBreakSignal: Void = { signal(SIGIO, SIG_IGN) }()
}
