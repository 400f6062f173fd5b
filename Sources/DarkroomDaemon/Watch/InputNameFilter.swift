import Glibc

/// Decides from its name alone whether a file in a watched folder is an input.
///
/// Hidden files (`.name`) and the names editors, browsers and copy tools give to files they are
/// still writing (`*.tmp`, `*.part`, `*.crdownload`, `name~`, …) are never inputs; the others
/// must match one of the watch's `include` globs, compared case-insensitively.
public struct InputNameFilter: Sendable {
    /// Lowercased globs.
    private let patterns: [String]

    public init(include: [String]) {
        patterns = include.map { $0.lowercased() }
    }

    /// Whether a file called `name` (no folder) should be processed.
    public func accepts(_ name: String) -> Bool {
        guard !Self.isHiddenOrTemporary(name) else { return false }
        let lower = name.lowercased()
        return patterns.contains { fnmatch($0, lower, 0) == 0 }
    }

    /// Suffixes of files still being written by common tools.
    static let temporarySuffixes = [
        ".tmp", ".temp", ".part", ".partial", ".crdownload", ".download", ".filepart",
        ".swp", ".swx", ".!ut", ".opdownload", ".aria2",
    ]

    /// Hidden, or named like a file still being written.
    public static func isHiddenOrTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("~$") { return true }
        if name.hasPrefix("#") && name.hasSuffix("#") { return true }  // editor autosave
        let lower = name.lowercased()
        return temporarySuffixes.contains { lower.hasSuffix($0) }
    }
}
