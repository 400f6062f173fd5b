import DarkroomConfig

/// The folders a watch needs before it starts: the watched folder, failed/, reports/ and, with
/// `on_success: move`, done/. Shared by the plain daemon and a cluster node.
enum WatchFolders {
    static func create(for watch: WatchConfig) throws(FileError) {
        try FileIO.createDirectory(watch.path)
        for folder in [watch.failedDirectory, watch.reportsDirectory] { try FileIO.createDirectory(folder) }
        if watch.onSuccess == .move { try FileIO.createDirectory(watch.doneDirectory) }
    }
}
