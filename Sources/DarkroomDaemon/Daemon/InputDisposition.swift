import DarkroomConfig
import Glibc

/// The last step of a job: the input leaves the watched folder (or stays, with `keep`).
enum InputDisposition {
    /// Where the input went.
    enum Outcome: Equatable {
        case moved(to: String)
        case deleted
        case kept
    }

    /// Applies the watch's `on_success` for `ok`/`skipped`, or moves to the failed folder for
    /// `failed`. A name already taken in the destination gets a numbered sibling
    /// (`photo-1.jpg`) rather than replacing an earlier file.
    static func apply(status: JobReport.Status, input: String, relative: String,
                      layout: WatchLayout) throws(FileError) -> Outcome {
        if status == .failed {
            return .moved(to: try move(input, to: layout.failedPath(forRelative: relative)))
        }
        switch layout.watch.onSuccess {
        case .keep: return .kept
        case .delete:
            try FileIO.remove(input)
            return .deleted
        case .move:
            return .moved(to: try move(input, to: layout.donePath(forRelative: relative)))
        }
    }

    /// Moves `source` to `target`, or to the first free numbered sibling of it, never replacing
    /// a file. A candidate that already holds exactly the source's bytes is the source itself,
    /// copied there by a move that was cut short (`kill -9` after the copy, before the source
    /// was removed): then only the source is removed, so a crash never leaves a duplicate.
    static func move(_ source: String, to target: String) throws(FileError) -> String {
        try FileIO.createDirectory(FileIO.parent(of: target))
        var n = 0
        while true {
            let candidate = NumberedName.candidate(target, n)
            n += 1
            if let existing = FileStatus.of(candidate) {
                if try holdsSameBytes(candidate, existing, as: source) {
                    try FileIO.remove(source)
                    return candidate
                }
                continue
            }
            let rc = RawName.withCString(source) { from in RawName.withCString(candidate) { rename(from, $0) } }
            if rc == 0 { return candidate }
            if errno == EXDEV {
                if try copyAcross(source, to: candidate) { return candidate }
                continue  // taken meanwhile: try the next name
            }
            throw FileError("move \(RawName.display(source)) to", candidate, errno: errno)
        }
    }

    /// Across file systems: copies to a temporary name in the target folder, flushes it,
    /// renames it to `target` unless that is taken (then returns false), and only then removes
    /// the source. A crash before the rename leaves a temporary file (removed at the next
    /// start); after it, the identical copy that ``move(_:to:)`` recognises.
    private static func copyAcross(_ source: String, to target: String) throws(FileError) -> Bool {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(source) } catch {
            if case .system(let e) = error { throw e }
            throw FileError("read", source, errno: EFBIG)
        }
        do throws(FileError) {
            try AtomicFile.write(bytes, to: target, createFolder: false, placement: .keepExisting)
        } catch where error.errno == EEXIST {
            return false
        }
        try FileIO.remove(source)
        return true
    }

    /// Whether the file at `path` (with status `status`) has exactly the bytes of `source`.
    private static func holdsSameBytes(_ path: String, _ status: FileStatus, as source: String) throws(FileError) -> Bool {
        guard status.isRegularFile, let sourceStatus = FileStatus.of(source), sourceStatus.size == status.size else { return false }
        guard let a = try? FileIO.read(path), let b = try? FileIO.read(source) else { return false }
        return a == b
    }
}
