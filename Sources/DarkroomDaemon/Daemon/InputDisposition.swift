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

    /// Renames `source` to `target` (or a free numbered sibling of it). Across file systems,
    /// copies atomically and then removes the source.
    static func move(_ source: String, to target: String) throws(FileError) -> String {
        try FileIO.createDirectory(FileIO.parent(of: target))
        let destination = freeName(for: target)
        if rename(source, destination) == 0 { return destination }
        guard errno == EXDEV else { throw FileError("move \(source) to", destination, errno: errno) }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(source) } catch {
            if case .system(let e) = error { throw e }
            throw FileError("read", source, errno: EFBIG)
        }
        try AtomicFile.write(bytes, to: destination)
        try FileIO.remove(source)
        return destination
    }

    /// `path` if nothing is there, else `stem-1.ext`, `stem-2.ext`, …
    static func freeName(for path: String) -> String {
        guard FileStatus.of(path) != nil else { return path }
        let folder = FileIO.parent(of: path)
        let name = FileIO.fileName(of: path)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        var n = 1
        while true {
            let candidate = "\(folder)/\(stem)-\(n)\(ext)"
            if FileStatus.of(candidate) == nil { return candidate }
            n += 1
        }
    }
}
