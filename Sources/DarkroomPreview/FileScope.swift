import Foundation

/// The files the preview may read and write: inside the config's folder and the watch folders,
/// the images named on the command line, and files next to those images that a parameter can
/// name (fonts, `.cube` tables, logos). Requests name a file by a root and a relative path;
/// absolute paths, `..` and links leading out of the root are refused.
public struct FileScope: Sendable {
    /// A folder requests may name files in.
    public struct Root: Sendable, Codable, Equatable {
        /// `config`, `watch:NAME`, `done:NAME`, `images`.
        public var id: String
        public var label: String
        var folder: String
    }

    public private(set) var roots: [Root]
    /// The images named on the command line, as real paths.
    public let images: [String]
    /// Folders of the named images: their asset files may be read, nothing else there.
    let imageFolders: [String]

    public init(configFolder: String?, watchFolders: [(name: String, inbox: String, done: String?)], images: [String]) {
        var roots = [Root]()
        if let configFolder { roots.append(Root(id: "config", label: "config folder", folder: Self.real(configFolder) ?? configFolder)) }
        for w in watchFolders {
            roots.append(Root(id: "watch:" + w.name, label: "\(w.name): inbox", folder: Self.real(w.inbox) ?? w.inbox))
            if let done = w.done { roots.append(Root(id: "done:" + w.name, label: "\(w.name): done", folder: Self.real(done) ?? done)) }
        }
        self.roots = roots
        self.images = images.map { Self.real($0) ?? $0 }
        self.imageFolders = Array(Set(self.images.map { ($0 as NSString).deletingLastPathComponent }))
    }

    /// Why a path was refused; the text goes to the page as is.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// The real path of `path` inside root `rootID`, if it exists and stays inside.
    /// `images` roots take the image's index on the command line.
    public func resolve(root rootID: String, path: String) throws(Refusal) -> String {
        if rootID == "images" {
            guard let i = Int(path), images.indices.contains(i) else { throw Refusal(description: "no image \(path) was named on the command line") }
            return images[i]
        }
        guard let root = roots.first(where: { $0.id == rootID }) else { throw Refusal(description: "unknown folder \"\(rootID)\"") }
        return try resolve(relative: path, in: root.folder)
    }

    /// The real path of `path` relative to `folder`, which it may not leave.
    func resolve(relative path: String, in folder: String) throws(Refusal) -> String {
        try Self.checkRelative(path)
        let joined = folder + "/" + path
        guard let real = Self.real(joined) else { throw Refusal(description: "\(path): no such file") }
        guard Self.isInside(real, folder: folder) else {
            throw Refusal(description: "\(path) leads outside \(folder) (a symbolic link); the preview reads only inside its folders")
        }
        return real
    }

    /// Whether the preview may read `path` (a file a parameter names, given as resolved by the
    /// caller): inside a root, a named image, or a file next to a named image.
    public func allows(_ path: String) -> Bool {
        guard let real = Self.real(path) else { return false }
        if images.contains(real) { return true }
        if roots.contains(where: { Self.isInside(real, folder: $0.folder) }) { return true }
        return imageFolders.contains((real as NSString).deletingLastPathComponent)
    }

    /// Refuses absolute paths and `..`.
    static func checkRelative(_ path: String) throws(Refusal) {
        guard !path.isEmpty else { throw Refusal(description: "no path given") }
        guard !path.hasPrefix("/") else { throw Refusal(description: "\(path): absolute paths are refused; name a file inside the preview's folders") }
        guard !path.split(separator: "/").contains("..") else { throw Refusal(description: "\(path): \"..\" is refused; name a file inside the preview's folders") }
        guard !path.contains("\0") else { throw Refusal(description: "a path holds a NUL byte") }
    }

    static func isInside(_ real: String, folder: String) -> Bool {
        real == folder || real.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `realpath(3)`: links and `..` resolved; nil when the file does not exist.
    static func real(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Files under `root` (not descending into subfolders more than `depth`), relative to it,
    /// whose extension is in `extensions`; links leading out are left out.
    public func files(in rootID: String, extensions: Set<String>, depth: Int = 2) -> [String] {
        guard let root = roots.first(where: { $0.id == rootID }) else { return [] }
        return Self.list(root.folder, prefix: "", extensions: extensions, depth: depth, inside: root.folder)
    }

    static func list(_ folder: String, prefix: String, extensions: Set<String>, depth: Int, inside root: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var out = [String]()
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard let real = real(path), isInside(real, folder: root) else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if depth > 0 { out += list(path, prefix: prefix + name + "/", extensions: extensions, depth: depth - 1, inside: root) }
            } else if extensions.contains((name as NSString).pathExtension.lowercased()) {
                out.append(prefix + name)
            }
        }
        return out
    }
}
