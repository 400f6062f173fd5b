import Foundation

/// The process's CPU budget for rendering: one slot per core, shared by every job, so that
/// two jobs on a two-core machine run one thread each, and one job alone gets both cores.
/// (Before, each of up to 256 daemon workers ran a `concurrentPerform` of its own.)
public final class ComputeSlots: @unchecked Sendable {
    public static let shared = ComputeSlots(count: ProcessInfoCores.count)

    private let condition = NSCondition()
    private var free: Int
    public let count: Int

    public init(count: Int) {
        self.count = max(1, count)
        free = self.count
    }

    /// Waits for one slot: the thread that calls it renders only while it holds one.
    func acquire() {
        condition.lock()
        while free == 0 { condition.wait() }
        free -= 1
        condition.unlock()
    }

    /// Takes up to `wanted` slots if they are free now, without waiting; returns how many.
    func tryAcquire(upTo wanted: Int) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let taken = min(max(wanted, 0), free)
        free -= taken
        return taken
    }

    func release(_ n: Int = 1) {
        condition.lock()
        free += n
        condition.broadcast()
        condition.unlock()
    }
}
