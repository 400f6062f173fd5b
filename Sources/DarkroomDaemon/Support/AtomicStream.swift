import Glibc

/// A file written piece by piece that appears whole or not at all, as ``AtomicFile`` writes
/// one from memory: the pieces go to a hidden temporary file in the target's folder, and
/// ``commit()`` flushes it and renames it over the target. A stream dropped without a commit
/// (an error, a signal handled by unwinding) removes its temporary file.
///
/// One thread at a time: the caller serialises ``write(_:)``.
public final class AtomicStream: @unchecked Sendable {
    public let path: String
    private let temporary: AtomicFile.Temporary
    private var placed = false

    /// Opens the temporary file now, so a folder that cannot be written is known before any
    /// work is done. The folder is made when missing.
    public init(path: String) throws(FileError) {
        self.path = path
        temporary = try AtomicFile.begin(for: path)
    }

    public func write(_ bytes: [UInt8]) throws(FileError) {
        try AtomicFile.writeAll(bytes, to: temporary.descriptor, path: path)
    }

    public func write(_ text: String) throws(FileError) { try write(Array(text.utf8)) }

    /// Flushes the file and puts it in place of whatever was at `path`.
    public func commit() throws(FileError) {
        try AtomicFile.seal(temporary, attribute: nil, target: path)
        try AtomicFile.place(temporary.path, at: path, .replace)
        placed = true
        AtomicFile.syncDirectory(temporary.folder)
    }

    /// Removes the temporary file, for a process ending without unwinding (a signal): only
    /// `unlink`, which may run while another thread writes.
    public func abandon() {
        _ = RawName.withCString(temporary.path) { unlink($0) }
    }

    deinit { AtomicFile.discard(temporary, placed: placed) }
}
