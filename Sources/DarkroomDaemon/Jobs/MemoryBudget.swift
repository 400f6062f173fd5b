import Foundation

/// The pixel memory all running jobs may use together. A job reserves its estimated peak
/// (``JobMemoryEstimate``) before it decodes anything and waits while the budget is spent; a
/// job whose estimate exceeds the whole budget could never run and is refused at once.
///
/// One lock-protected counter shared by the workers; waiting uses a condition variable, woken
/// at every release, and wakes each second so a waiting job can notice it was abandoned.
public final class MemoryBudget: Sendable {
    /// Bytes in all.
    public let total: Int
    /// Bytes held for all jobs at once (the shared assets' pixels), counted once beside them.
    private let resident: @Sendable () -> Int
    private let state: Locked<Int>  // bytes reserved now
    private let condition = Condition()

    public init(total: Int, resident: @escaping @Sendable () -> Int = { 0 }) {
        self.total = max(1, total)
        self.resident = resident
        state = Locked(0)
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
        while true {
            let held = resident()
            let taken: Bool = state.withLock { reserved in
                guard reserved + held + bytes <= total else { return false }
                reserved += bytes
                return true
            }
            if taken { return .granted(bytes) }
            if shouldGiveUp() { return .gaveUp }
            condition.wait(seconds: 1)
        }
    }

    /// Gives back what ``reserve(_:giveUpWhen:)`` granted.
    func release(_ bytes: Int) {
        state.withLock { $0 -= bytes }
        condition.broadcast()
    }

    /// Bytes reserved now.
    public var reserved: Int { state.current }

    /// A wake-up signal without a predicate of its own (the predicate is the budget, checked
    /// under its own lock); a missed broadcast costs at most the one-second timeout.
    private final class Condition: @unchecked Sendable {
        private let condition = NSCondition()

        func wait(seconds: Double) {
            condition.lock()
            _ = condition.wait(until: Date().addingTimeInterval(seconds))
            condition.unlock()
        }

        func broadcast() {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }
}
