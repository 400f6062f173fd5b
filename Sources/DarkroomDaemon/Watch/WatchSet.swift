import DarkroomConfig

/// The watches of the running config, as the watcher thread and the settle timer both see them.
struct WatchSet: Sendable {
    var layouts: [WatchLayout]
    var limits: Limits
    var configSHA256: String

    /// The watch a file belongs to: the deepest watched folder holding it.
    func layout(for path: String) -> WatchLayout? {
        layouts.filter { $0.relativePath(of: path) != nil }.max { $0.watch.path.count < $1.watch.path.count }
    }
}
