import Foundation

/// Starts work on a thread of its own, not on Dispatch's shared pool.
///
/// Daemon workers and render helpers block (on locks, on compute slots, on disk), and work
/// items that block hold the pool's threads: on Linux the pool grows past one thread per core
/// only after about a second, so with two jobs at once on two cores the second job's render
/// would wait that long for its helper whenever the daemon starts or `process --jobs 2` runs.
package enum DedicatedThread {
    /// Runs `body` on a new thread named `name`; `group` is entered now and left when it ends.
    package static func start(name: String, group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.name = name
        thread.start()
    }
}
