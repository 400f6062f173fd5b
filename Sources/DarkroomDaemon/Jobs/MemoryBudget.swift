import Foundation

/// The pixel memory all running jobs may use together. A job reserves its estimated peak
/// (``JobMemoryEstimate``) before it decodes anything and waits while the budget is spent; a
/// job whose estimate exceeds the whole budget could never run and is refused at once.
///
/// The reserved count and the wait share one lock, so a release between a waiter's check and
/// its wait cannot be missed; the wait still wakes each second, because the shared assets'
/// bytes can change without a release and a waiting job must notice it was abandoned.
public final class MemoryBudget: @unchecked Sendable {  // every mutable field is read and written under `condition`
    /// Bytes in all.
    public let total: Int
    /// Bytes held for all jobs at once (the shared assets' pixels), counted once beside them.
    private let resident: @Sendable () -> Int
    private let condition = NSCondition()
    private var reservedBytes = 0

    public init(total: Int, resident: @escaping @Sendable () -> Int = { 0 }) {
        self.total = max(1, total)
        self.resident = resident
    }

    /// The outcome of ``reserve(_:giveUpWhen:)``.
    enum Reservation {
        case granted(Int)
        /// The estimate exceeds the whole budget.
        case neverFits
        /// `giveUpWhen` said to stop waiting.
        case gaveUp
    }

    /// Waits until `bytes` fit beside the other reservations, then takes them.
    func reserve(_ bytes: Int, giveUpWhen shouldGiveUp: () -> Bool) -> Reservation {
        guard bytes + resident() <= total else { return .neverFits }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if reservedBytes + resident() + bytes <= total {
                reservedBytes += bytes
                return .granted(bytes)
            }
            if shouldGiveUp() { return .gaveUp }
            _ = condition.wait(until: Date().addingTimeInterval(1))
        }
    }

    /// Gives back what ``reserve(_:giveUpWhen:)`` granted; the last running job's release also
    /// hands the process's free heap pages back to the system (``ProcessMemory``).
    func release(_ bytes: Int) {
        condition.lock()
        reservedBytes -= bytes
        let idle = reservedBytes == 0
        condition.broadcast()
        condition.unlock()
        if idle { ProcessMemory.releaseFreeHeap() }
    }

    /// Bytes reserved now.
    public var reserved: Int {
        condition.lock()
        defer { condition.unlock() }
        return reservedBytes
    }
}
