import DarkroomConfig

/// Where one watch reads and writes: the relative path of each input below the watched folder,
/// and from it the report, done and failed paths, mirrored so that `a/photo.jpg` and
/// `b/photo.jpg` never collide. Also knows which folders are never watched.
public struct WatchLayout: Sendable {
    public let watch: WatchConfig
    public let nameFilter: InputNameFilter
    /// Folders below which nothing is watched or scanned: every done, failed and reports folder
    /// and the fixed part of every output path of every watch (watching them would loop).
    public let excludedFolders: Set<String>

    /// The layout of `watch`; `all` is every watch of the config, whose folders are excluded too.
    public init(_ watch: WatchConfig, among all: [WatchConfig]) {
        self.watch = watch
        nameFilter = InputNameFilter(include: watch.include)
        var excluded = Set<String>()
        for w in all {
            excluded.formUnion([w.doneDirectory, w.failedDirectory, w.reportsDirectory])
            for output in w.outputs { excluded.insert(OutputTemplate.fixedDirectory(of: output.pathTemplate, watch: w.name)) }
        }
        // A folder that holds the watched folder itself would exclude everything; the config
        // loader refuses such configs, and here they simply exclude nothing.
        excludedFolders = excluded.filter { !Self.isWithin(watch.path, $0) }
    }

    /// The path of `path` below the watched folder, or nil when it is not an input of this
    /// watch (outside it, in an excluded folder, or in a subfolder of a non-recursive watch).
    public func relativePath(of path: String) -> String? {
        guard path.hasPrefix(watch.path + "/") else { return nil }
        let relative = String(path.dropFirst(watch.path.count + 1))
        guard !relative.isEmpty else { return nil }
        if !watch.recursive && relative.contains("/") { return nil }
        if excludedFolders.contains(where: { Self.isWithin(path, $0) }) { return nil }
        return relative
    }

    /// Whether a file at `path` is an input of this watch.
    public func accepts(_ path: String) -> Bool {
        relativePath(of: path) != nil && nameFilter.accepts(FileIO.fileName(of: path))
    }

    /// Whether a folder is watched and scanned (the root, or below it in a recursive watch).
    public func watchesFolder(_ folder: String) -> Bool {
        if folder == watch.path { return true }
        guard watch.recursive, folder.hasPrefix(watch.path + "/") else { return false }
        return !excludedFolders.contains { Self.isWithin(folder, $0) }
    }

    /// `reports/a/photo.jpg.json`; a name too long for `.json` gets a shortened name with a
    /// hash (see ``NameFit``).
    public func reportPath(forRelative relative: String) -> String {
        let folder = FileIO.parent(of: "/" + relative)
        let name = JobReport.fileName(forInput: FileIO.fileName(of: relative))
        return watch.reportsDirectory + (folder == "/" ? "" : folder) + "/" + name
    }
    /// The folder of the thumbnails of the input at `relative` (named as its report is, by
    /// ``JobThumbnails``): under the watch's name, so watches sharing the folder never meet.
    func thumbnailFolder(forRelative relative: String) -> String {
        let folder = FileIO.parent(of: "/" + relative)
        return watch.thumbnailsDirectory + "/" + watch.name + (folder == "/" ? "" : folder)
    }
    public func donePath(forRelative relative: String) -> String { watch.doneDirectory + "/" + relative }
    public func failedPath(forRelative relative: String) -> String { watch.failedDirectory + "/" + relative }

    /// Whether `inner` is `outer` or lies below it.
    static func isWithin(_ inner: String, _ outer: String) -> Bool {
        inner == outer || outer == "/" || inner.hasPrefix(outer + "/")
    }
}
