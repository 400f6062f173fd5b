import DarkroomConfig

/// The folders a watch needs before it starts: the watched folder, failed/, reports/ and, with
/// `on_success: move`, done/. Shared by the plain daemon and a cluster node.
enum WatchFolders {
    static func create(for watch: WatchConfig) throws(FileError) {
        try FileIO.createDirectory(watch.path)
        for folder in [watch.failedDirectory, watch.reportsDirectory] { try FileIO.createDirectory(folder) }
        if watch.onSuccess == .move { try FileIO.createDirectory(watch.doneDirectory) }
    }

    /// The folders a watch writes into, where a killed process may leave temporary files: the
    /// reports, done and failed folders (a move across file systems copies through a temporary
    /// name) and the fixed part of every output path.
    static func written(by watch: WatchConfig) -> [String] {
        Set([watch.reportsDirectory, watch.doneDirectory, watch.failedDirectory]
            + watch.outputs.map { OutputTemplate.fixedDirectory(of: $0.pathTemplate, watch: watch.name) }).sorted()
    }
}
