/// Lists the input candidates below a watched folder: the walk the watcher makes when it
/// watches a folder, and the one the ``Intake`` makes when its backlog overflowed.
enum FolderWalk {
    /// The regular files below `folder` that `layout` takes, sorted by name within each folder,
    /// calling `visit` on each folder before listing it (the watcher watches it there, so a file
    /// landing during the walk is seen by the watch or by the walk).
    static func files(in folder: String, layout: WatchLayout, visit: (String) -> Void = { _ in }) -> [String] {
        guard layout.watchesFolder(folder) else { return [] }
        visit(folder)
        guard let names = FileIO.list(folder) else { return [] }
        var found = [String]()
        for name in names.sorted() {
            let path = folder == "/" ? "/" + name : folder + "/" + name
            guard let status = FileStatus.of(path) else { continue }
            if status.isDirectory {
                if layout.watch.recursive { found += files(in: path, layout: layout, visit: visit) }
            } else if status.isRegularFile, layout.accepts(path) {
                found.append(path)
            }
        }
        return found
    }
}
