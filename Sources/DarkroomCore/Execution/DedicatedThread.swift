import Foundation

/// Starts work on a thread of its own, not on Dispatch's shared pool.
///
/// Daemon workers and render helpers block (on locks, on compute slots, on disk), and work
/// items that block hold the pool's threads: on Linux the pool grows past one thread per core
/// only after about a second. Measured before this existed: with two jobs at once on two cores,
/// the second job's render waited 0.8 s for its helper to be given a thread, every time the
/// daemon started or `darkroom process --jobs 2` ran.
public enum DedicatedThread {
    /// Runs `body` on a new thread named `name`; `group` is entered now and left when it ends.
    public static func start(name: String, group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.name = name
        thread.start()
    }
}
