/// Checks that need every watch at once: unique names, folders that do not coincide, and no
/// output, done, failed or reports folder inside a watched folder (the daemon would take its
/// own files as new input).
extension ConfigDecoder {
    func checkFolders(_ watches: [DecodedWatch]) {
        for (i, watch) in watches.enumerated() {
            if let first = watches[..<i].first(where: { $0.config.name == watch.config.name }) {
                error(watch.fields.mark("name"), watch.fields.path("name"),
                      "\"\(watch.config.name)\" is already the name of \(first.path); give each watch its own name")
            }
            checkDistinct(watch)
            for (place, folder, mark) in writtenFolders(watch) {
                for watched in watches where ConfigPath.isWithin(folder, watched.config.path) {
                    error(mark, place, "\(folder) lies inside the watched folder \(watched.config.path) (\(watched.path)); "
                          + "the daemon would take its own files as input, so move it outside")
                }
            }
            for outer in watches[..<i] where outer.config.path == watch.config.path {
                error(watch.fields.mark("path"), watch.fields.path("path"),
                      "\(watch.config.path) is already watched by \(outer.path); watch each folder once")
            }
            for outer in watches where outer.config.recursive && outer.config.path != watch.config.path
                && ConfigPath.isWithin(watch.config.path, outer.config.path) {
                error(watch.fields.mark("path"), watch.fields.path("path"),
                      "lies inside \(outer.config.path), which \(outer.path) already watches recursively")
            }
            for (j, output) in watch.config.outputs.enumerated() {
                if let k = watch.config.outputs[..<j].firstIndex(where: { $0.pathTemplate == output.pathTemplate }) {
                    error(watch.outputs[j].mark, watch.outputs[j].path,
                          "writes the same files as \(watch.outputs[k].path); give each output its own path")
                }
            }
        }
    }

    /// The done, failed, reports (and thumbnails) folders must be different places (the watched folder
    /// is kept apart from them by the inside-a-watched-folder check).
    private func checkDistinct(_ watch: DecodedWatch) {
        let c = watch.config
        var seen = [(String, String)]()
        if c.onSuccess == .move { seen.append(("done_dir", c.doneDirectory)) }
        var others = [("failed_dir", c.failedDirectory), ("reports_dir", c.reportsDirectory)]
        if c.thumbnailBox != nil { others.append(("thumbnails_dir", c.thumbnailsDirectory)) }
        for (key, folder) in others {
            if let same = seen.first(where: { $0.1 == folder }) {
                error(watch.fields.mark(key), watch.fields.path(key), "is the same folder as \(same.0) (\(folder)); give each its own folder")
            }
            seen.append((key, folder))
        }
    }

    /// Every folder the daemon writes into for this watch, with the config path and position to blame.
    private func writtenFolders(_ watch: DecodedWatch) -> [(String, String, SourceMark)] {
        let c = watch.config, f = watch.fields
        var folders = [(String, String, SourceMark)]()
        if c.onSuccess == .move { folders.append((f.path("done_dir"), c.doneDirectory, f.mark("done_dir"))) }
        folders.append((f.path("failed_dir"), c.failedDirectory, f.mark("failed_dir")))
        folders.append((f.path("reports_dir"), c.reportsDirectory, f.mark("reports_dir")))
        if c.thumbnailBox != nil {
            // The default is named after reports_dir: blamed there when not given.
            let key = f["thumbnails_dir"] == nil ? "reports_dir" : "thumbnails_dir"
            folders.append((f.path("thumbnails_dir"), c.thumbnailsDirectory, f.mark(key)))
        }
        for (output, place) in zip(c.outputs, watch.outputs) {
            folders.append((place.path, OutputTemplate.fixedDirectory(of: output.pathTemplate, watch: c.name), place.mark))
        }
        return folders
    }
}
