import Foundation

/// Path arithmetic for config values: purely lexical, so a config checks the same whether or
/// not its folders exist yet (the daemon creates them).
enum ConfigPath {
    /// `text` made absolute against `base` (a leading `~/` means the home folder), standardized.
    static func resolve(_ text: String, against base: String) -> String {
        var path = text
        if path == "~" || path.hasPrefix("~/") {
            path = FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = base + "/" + path }
        return standardize(path)
    }

    /// Removes `.`, `..`, repeated and trailing slashes from an absolute path.
    static func standardize(_ path: String) -> String {
        var parts = [Substring]()
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "/"
    }

    /// `<path>/../<name>`: the default place of the done, failed and reports folders.
    static func sibling(_ name: String, of path: String) -> String {
        standardize(path + "/../" + name)
    }

    /// Whether `inner` is `outer` or lies below it (both standardized).
    static func isWithin(_ inner: String, _ outer: String) -> Bool {
        inner == outer || outer == "/" || inner.hasPrefix(outer + "/")
    }
}
