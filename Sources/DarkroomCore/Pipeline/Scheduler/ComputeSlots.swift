import Foundation

/// The process's CPU budget for rendering: one slot per core, shared by every job, so that
/// two jobs on a two-core machine run one thread each, and one job alone gets both cores.
/// (Before, each of up to 256 daemon workers ran a `concurrentPerform` of its own.)
package final class ComputeSlots: @unchecked Sendable {
    package static let shared = ComputeSlots(count: ProcessInfoCores.count)

    private let condition = NSCondition()
    private var free: Int
    /// Jobs waiting for their first slot: they come before any job's extra helpers.
    private var waiting = 0
    let count: Int

    init(count: Int) {
        self.count = max(1, count)
        free = self.count
    }

    /// Waits for one slot: the thread that calls it renders only while it holds one.
    func acquire() {
        condition.lock()
        waiting += 1
        while free == 0 { condition.wait() }
        waiting -= 1
        free -= 1
        condition.unlock()
    }

    /// Takes up to `wanted` slots for helpers if they are free now and no job waits for its
    /// first slot, without waiting; returns how many.
    package func tryAcquire(upTo wanted: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        guard waiting == 0 else { return 0 }
        let taken = min(max(wanted, 0), free)
        free -= taken
        return taken
    }

    /// Whether a job waits for its first slot: a helper then gives its slot back after its
    /// current strip, so two jobs on two cores run one thread each rather than one after the other.
    var isWanted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return waiting > 0
    }

    package func release(_ n: Int = 1) {
        condition.lock()
        free += n
        condition.broadcast()
        condition.unlock()
    }
}
