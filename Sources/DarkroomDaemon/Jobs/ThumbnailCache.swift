import Foundation
import Glibc

/// Thumbnails kept between runs, one file each, named by the SHA-256 of the file they were made
/// from and how they were made (``Thumbnailer``'s box, format and quality): a file changed since
/// gets a new thumbnail, and one seen again (a contact sheet made again, the same picture under
/// two names) is read back instead of decoded. Entries are written whole or not at all; one that
/// is not the picture its name promises is made anew. ``prune()`` removes entries unused for
/// ``maxAge``; reading an entry counts as a use.
public final class ThumbnailCache: Sendable {
    /// The folder of the entries (in subfolders by the first two digits of the hash).
    public let folder: String
    /// How long an entry is kept after its last use.
    public static let maxAge: TimeInterval = 30 * 86_400
    private let failure = Locked<FileError?>(nil)

    public init(folder: String) { self.folder = folder }

    /// `$XDG_CACHE_HOME/darkroom/thumbnails`, else `$HOME/.cache/darkroom/thumbnails` (the XDG
    /// base directory rule); nil when neither names an absolute folder.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/darkroom/thumbnails" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/darkroom/thumbnails" }
        return nil
    }

    /// The first entry that could not be written, if any: the cache is left alone then, and the
    /// thumbnails are made each time (the caller says so once).
    public var firstFailure: FileError? { failure.current }

    func path(_ key: String) -> String { folder + "/" + key.prefix(2) + "/" + key }

    /// The bytes stored under `key`, marking the entry used; nil when there is none.
    func read(_ key: String) -> [UInt8]? {
        let path = path(key)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        _ = RawName.withCString(path) { utimes($0, nil) }
        return Array(data)
    }

    /// Stores `bytes` under `key`; a failure is kept (``firstFailure``) and later writes skipped.
    func write(_ key: String, _ bytes: [UInt8]) {
        guard failure.current == nil else { return }
        do throws(FileError) {
            try AtomicFile.write(bytes, to: path(key), durable: false)
        } catch {
            failure.withLock { $0 = $0 ?? error }
        }
    }

    /// Removes the entries (and any temporary file left by a crash) unused for ``maxAge``;
    /// returns how many were removed.
    @discardableResult
    public func prune(now: Date = Date()) -> Int {
        let fm = FileManager.default
        var removed = 0
        for sub in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where sub.count == 2 {
            let dir = folder + "/" + sub
            for name in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] {
                let path = dir + "/" + name
                guard let modified = (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                      now.timeIntervalSince(modified) > Self.maxAge else { continue }
                if (try? fm.removeItem(atPath: path)) != nil { removed += 1 }
            }
        }
        return removed
    }
}
