import Glibc

/// A worker's claim on one job, as this node knows it: the fencing token, and until when the
/// lease is surely still ours by this machine's own elapsed time.
///
/// The database sets the lease's expiry from its own clock (`now() + lease`), so a node never
/// compares clocks with it. What the node does know: a renewal sent at local time t and
/// answered yes holds the lease until at least t + lease on the database's clock, and elapsed
/// time runs at (nearly) the same rate on both machines. So ``isHeld`` counts from the moment
/// the renewal was *sent*, on `CLOCK_BOOTTIME` (which keeps counting while the process is
/// stopped by SIGSTOP or the machine is suspended), with a safety margin. A frozen node that
/// wakes up after its lease ran out therefore knows it at once, without asking anyone, and
/// publishes nothing.
final class JobLease: Sendable {
    let job: ClaimedJob
    private let state: Locked<State>
    /// Fraction of the lease a node counts on (the rest absorbs clock-rate differences).
    static let margin = 0.8

    private struct State {
        var heldUntil: UInt64
        var lost = false
    }

    /// A lease just granted by a claim sent at `sentAt`.
    init(job: ClaimedJob, leaseSeconds: Double, sentAt: UInt64) {
        self.job = job
        state = Locked(State(heldUntil: sentAt + Self.nanoseconds(leaseSeconds)))
    }

    /// Still ours: not taken over, and the last renewal still covers now.
    var isHeld: Bool {
        let now = Self.now()
        return state.withLock { !$0.lost && now < $0.heldUntil }
    }

    /// Seconds the lease surely holds from now (0 once lost or run out).
    var secondsLeft: Double {
        let now = Self.now()
        return state.withLock { $0.lost || now >= $0.heldUntil ? 0 : Double($0.heldUntil - now) / 1e9 }
    }

    /// Whether another node took the job over (as opposed to the lease running out unrenewed).
    var wasTakenOver: Bool { state.withLock { $0.lost } }

    /// A renewal sent at `sentAt` succeeded.
    func renewed(leaseSeconds: Double, sentAt: UInt64) {
        state.withLock { s in s.heldUntil = max(s.heldUntil, sentAt + Self.nanoseconds(leaseSeconds)) }
    }

    /// A renewal found the token changed: someone else holds the job now.
    func lose() { state.withLock { $0.lost = true } }

    /// Monotonic nanoseconds that keep counting through SIGSTOP and suspend.
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    private static func nanoseconds(_ leaseSeconds: Double) -> UInt64 { UInt64(leaseSeconds * margin * 1e9) }
}

/// The leases this node's workers hold, which the heartbeat renews.
final class LeaseBook: Sendable {
    private let leases = Locked([Int64: JobLease]())

    func add(_ lease: JobLease) { leases.withLock { $0[lease.job.id] = lease } }
    func remove(_ lease: JobLease) { leases.withLock { _ = $0.removeValue(forKey: lease.job.id) } }
    var all: [JobLease] { leases.withLock { Array($0.values) } }
    var count: Int { leases.withLock { $0.count } }
}
