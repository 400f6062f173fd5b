import DarkroomConfig
import Glibc

/// Puts an encoded output in place atomically and applies the watch's `on_conflict` rule when
/// the path already holds the output of another input (`x.jpg` and `x.png` → `out/x.jpg`).
///
/// Each output carries the input it was made from in the extended attribute
/// `user.darkroom.input` (`watch:relative/path`). An existing output with this input's mark,
/// or listed in this input's earlier report, is this input's earlier version and is replaced;
/// any other is another input's. The check and the rename are one step in the kernel
/// (`RENAME_NOREPLACE`), so two workers cannot both take a free name.
enum OutputPlacement {
    static let ownerAttribute = "user.darkroom.input"

    /// Where the output went, and what the rule did.
    struct Placed: Sendable {
        var path: String
        var conflict: JobReport.Conflict?
    }

    /// Who an output belongs to, and what to do about others'.
    struct Owner: Sendable {
        /// `watch:relative/path` of the input.
        var mark: String
        var rule: ConflictRule
        /// Outputs this input's earlier report lists (for file systems without user attributes).
        var previousOutputs: Set<String> = []
    }

    /// What is placed: bytes written now, or a sealed temporary file (``AtomicFile/Temporary``)
    /// an encoder filled as it went, renamed into place.
    enum Payload {
        case bytes([UInt8])
        case file(AtomicFile.Temporary)
    }

    /// Writes `bytes` to `path`, or where `owner.rule` says; nil owner: replace whatever is there.
    static func write(_ bytes: [UInt8], to path: String, owner: Owner?, durable: Bool = true) throws(ReportError) -> Placed {
        try place(.bytes(bytes), to: path, owner: owner, durable: durable)
    }

    /// Places `payload` at `path`, or where `owner.rule` says; nil owner: replace whatever is there.
    /// `durable: false` leaves the folder unflushed (the rename stays atomic).
    static func place(_ bytes: Payload, to path: String, owner: Owner?, durable: Bool = true) throws(ReportError) -> Placed {
        guard let owner else {
            try attempt(bytes, path, .replace, nil, durable: durable)
            return Placed(path: path)
        }
        guard try attemptKeepingOthers(bytes, path, owner, durable: durable) else {
            let other = AtomicFile.attribute(ownerAttribute, of: path)
            switch owner.rule {
            case .overwrite:
                try attempt(bytes, path, .replace, owner.mark, durable: durable)
                return Placed(path: path, conflict: .init(action: .overwritten, otherInput: other.map(RawName.display)))
            case .fail:
                throw ReportError(code: .outputExists, message:
                    "\(RawName.display(path)) already holds the output of \(other.map(RawName.display) ?? "another input") "
                    + "(on_conflict: fail); add {dir} or {ext} to the output path, or set on_conflict: number")
            case .number:
                var n = 1
                while true {
                    let candidate = NumberedName.candidate(path, n)
                    if try attemptKeepingOthers(bytes, candidate, owner, durable: durable) {
                        return Placed(path: candidate, conflict: .init(action: .numbered, otherInput: other.map(RawName.display)))
                    }
                    n += 1
                }
            }
        }
        return Placed(path: path)
    }

    /// Writes to `path` unless another input's output is there; returns whether it wrote.
    private static func attemptKeepingOthers(_ bytes: Payload, _ path: String, _ owner: Owner, durable: Bool) throws(ReportError) -> Bool {
        do throws(FileError) {
            try store(bytes, path, .keepExisting, owner.mark, durable: durable)
            return true
        } catch where error.errno == EEXIST {
            let mine = AtomicFile.attribute(ownerAttribute, of: path) == owner.mark || owner.previousOutputs.contains(path)
            guard mine else { return false }
            try attempt(bytes, path, .replace, owner.mark, durable: durable)
            return true
        } catch {
            throw ReportError(code: .writeFailed, message: error.description)
        }
    }

    private static func attempt(_ bytes: Payload, _ path: String, _ placement: AtomicFile.Placement,
                                _ mark: String?, durable: Bool) throws(ReportError) {
        do throws(FileError) {
            try store(bytes, path, placement, mark, durable: durable)
        } catch {
            throw ReportError(code: .writeFailed, message: error.description)
        }
    }

    /// One try at `path`: the bytes written to a temporary file and renamed, or the sealed file
    /// renamed (it stays for the next try when the name is taken; its attribute was set when
    /// it was sealed).
    private static func store(_ bytes: Payload, _ path: String, _ placement: AtomicFile.Placement,
                              _ mark: String?, durable: Bool) throws(FileError) {
        switch bytes {
        case .bytes(let data):
            try AtomicFile.write(data, to: path, placement: placement, attribute: mark.map { (ownerAttribute, $0) }, durable: durable)
        case .file(let file):
            try AtomicFile.place(file.path, at: path, placement)
            if durable { AtomicFile.syncDirectory(file.folder) }
        }
    }
}
