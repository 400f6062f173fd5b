import Dispatch
import Foundation
import DarkroomCore

/// A bounded FIFO of files waiting for a worker, and the workers that drain it.
///
/// At most `workers` jobs run at once, each on a Dispatch thread; no thread waits idle for
/// work (a worker that finds the queue empty ends, and the next submission starts one). At most
/// `capacity` jobs wait: a submission beyond it is refused, and the caller leaves the file in
/// its folder for a later rescan, so memory does not grow with the number of files waiting.
/// A path is queued once: a second submission while it waits or runs is a duplicate, but a
/// change noted meanwhile (``noteChange(_:)``) is handed back through the change handler when
/// the job ends, so a file rewritten while it is processed is looked at again.
public final class JobQueue<Job: Sendable>: Sendable {
    public enum Submission: Equatable, Sendable {
        case accepted, duplicate, full, stopped
    }

    private struct State {
        var capacity: Int
        var workers: Int
        var pending: [(key: String, job: Job)] = []
        var pendingStart = 0
        /// Keys waiting or running.
        var known = Set<String>()
        /// Known keys whose file changed after they were queued.
        var changed = Set<String>()
        var running = 0
        var inFlight = 0
        var stopped = false

        var pendingCount: Int { pending.count - pendingStart }

        mutating func popFirst() -> (key: String, job: Job)? {
            guard pendingStart < pending.count else { return nil }
            let first = pending[pendingStart]
            pendingStart += 1
            // Compact now and then so the array does not keep every job ever queued.
            if pendingStart > 64 && pendingStart * 2 > pending.count {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            return first
        }
    }

    private let state: Locked<State>
    private let group = DispatchGroup()
    private let handler: @Sendable (Job) -> Void
    private let changeHandler = Locked<(@Sendable (String) -> Void)?>(nil)
    private let roomHandler = Locked<(@Sendable () -> Void)?>(nil)

    /// `handler` runs each job on a worker thread; it must not throw or block forever.
    public init(capacity: Int, workers: Int, handler: @escaping @Sendable (Job) -> Void) {
        state = Locked(State(capacity: max(1, capacity), workers: max(1, workers)))
        self.handler = handler
    }

    /// Queues `job` under `key` (its input path).
    public func submit(_ job: Job, key: String) -> Submission {
        let (result, startWorker): (Submission, Bool) = state.withLock { s in
            if s.stopped { return (.stopped, false) }
            if s.known.contains(key) { return (.duplicate, false) }
            if s.pendingCount >= s.capacity { return (.full, false) }
            s.pending.append((key, job))
            s.known.insert(key)
            guard s.running < s.workers else { return (.accepted, false) }
            s.running += 1
            return (.accepted, true)
        }
        if startWorker { launchWorker() }
        return result
    }

    /// Called with a key, after its job ended, when ``noteChange(_:)`` marked it meanwhile.
    public func onChangeWhileQueued(_ handler: @escaping @Sendable (String) -> Void) {
        changeHandler.withLock { $0 = handler }
    }

    /// Called (on a worker thread) when a worker takes a job and leaves the queue at most half
    /// full, so the submitter can refill it without waiting for its next round.
    public func onRoom(_ handler: @escaping @Sendable () -> Void) {
        roomHandler.withLock { $0 = handler }
    }

    /// Marks a waiting or running key as changed; returns false when the key is not known
    /// (the caller should then treat the change as new work).
    @discardableResult
    public func noteChange(_ key: String) -> Bool {
        state.withLock { s in
            guard s.known.contains(key) else { return false }
            s.changed.insert(key)
            return true
        }
    }

    /// Jobs waiting for a worker.
    public var pendingCount: Int { state.withLock { $0.pendingCount } }
    /// Jobs being processed now.
    public var inFlightCount: Int { state.withLock { $0.inFlight } }
    /// Jobs waiting for a worker, counted by `group` (e.g. by watch, for `darkroom status`).
    public func pendingCounts(by group: (Job) -> String) -> [String: Int] {
        state.withLock { s in
            var counts = [String: Int]()
            for item in s.pending[s.pendingStart...] { counts[group(item.job), default: 0] += 1 }
            return counts
        }
    }
    /// Room left before submissions are refused.
    public var freeCapacity: Int { state.withLock { $0.capacity - $0.pendingCount } }

    /// New limits (after a config reload); running jobs are not interrupted.
    public func setLimits(capacity: Int, workers: Int) {
        let extra: Int = state.withLock { s in
            s.capacity = max(1, capacity)
            s.workers = max(1, workers)
            let wanted = min(s.workers, s.pendingCount + s.running) - s.running
            s.running += max(0, wanted)
            return max(0, wanted)
        }
        for _ in 0..<extra { launchWorker() }
    }

    /// Refuses new jobs, forgets the waiting ones (their files stay in the watched folders for
    /// the next start) and waits up to `timeout` seconds for the running ones. Returns whether
    /// they all finished.
    public func stop(waitingUpTo timeout: Double) -> Bool {
        state.withLock { s in
            s.stopped = true
            while let (key, _) = s.popFirst() { s.known.remove(key) }
            s.changed.removeAll()
        }
        return group.wait(timeout: .now() + timeout) == .success
    }

    /// Waits up to `timeout` seconds for the running jobs to end; returns whether they did.
    public func waitForRunning(upTo timeout: Double) -> Bool {
        group.wait(timeout: .now() + timeout) == .success
    }

    private func launchWorker() {
        DedicatedThread.start(name: "darkroom-worker", group: group) { [self] in
            while let (key, job, roomMade) = next() {
                if roomMade, let onRoom = roomHandler.current { onRoom() }
                handler(job)
                let changed: Bool = state.withLock { s in
                    s.known.remove(key)
                    s.inFlight -= 1
                    return s.changed.remove(key) != nil
                }
                if changed, let onChange = changeHandler.current { onChange(key) }
            }
        }
    }

    /// The next job for this worker, or nil when the worker should end; `roomMade` when taking
    /// it left the queue at most half full.
    private func next() -> (key: String, job: Job, roomMade: Bool)? {
        state.withLock { s in
            if s.running > s.workers || s.stopped {
                s.running -= 1
                return nil
            }
            guard let item = s.popFirst() else {
                s.running -= 1
                return nil
            }
            s.inFlight += 1
            return (item.key, item.job, s.pendingCount * 2 <= s.capacity)
        }
    }
}
