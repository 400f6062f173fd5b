import CLinuxFiles
import Dispatch

/// Lets a writer go on at once when it opens a file a job holds a read lease on.
///
/// The kernel holds a writer's `open` until the lease holder gives the lease up (or until
/// `/proc/sys/fs/lease-break-time`, 45 s by default). A job notices a broken lease only between
/// its steps, so this monitor looks at the leases of the jobs in progress ten times a second
/// and gives up a broken one on the job's behalf; the job still sees it broken
/// (``InputFile/leaseBroken``) and abandons its work at its next check.
final class LeaseMonitor: Sendable {
    private let queue = DispatchQueue(label: "darkroom.leases")
    /// The files watched, by object: touched only on `queue`.
    private nonisolated(unsafe) var files = [ObjectIdentifier: InputFile]()
    private nonisolated(unsafe) var timer: (any DispatchSourceTimer)?

    /// Watches `file` until ``unwatch(_:)``.
    func watch(_ file: InputFile) {
        guard file.leased else { return }
        queue.sync {
            files[ObjectIdentifier(file)] = file
            guard timer == nil else { return }
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(20))
            t.setEventHandler { [weak self] in self?.check() }
            t.resume()
            timer = t
        }
    }

    func unwatch(_ file: InputFile) {
        queue.sync {
            files[ObjectIdentifier(file)] = nil
            if files.isEmpty {
                timer?.cancel()
                timer = nil
            }
        }
    }

    private func check() {
        for file in files.values where file.leaseBroken {
            _ = darkroom_release_lease(file.descriptor)
        }
    }
}
