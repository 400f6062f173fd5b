import Dispatch
import Foundation
import Logging

/// Between the watcher and the job queue: holds announced files until they have settled,
/// keeps the ones there is no room for yet in a backlog, schedules retries, and submits
/// settled files to the queue.
///
/// Everything here runs on one serial Dispatch queue, which alone owns ``State``: the
/// watcher thread and the workers only post to it (``offer(_:skipIfReported:)``,
/// ``consider(_:)``, ``retry(_:afterSeconds:)``), and its timer does the rest. So `lstat`
/// never runs under a lock another thread waits for, and the job queue's lock is only taken
/// from here, never inside another.
///
/// The backlog makes a storm cost O(files): a folder is listed once, and its files are fed to
/// the settle tracker as room appears, instead of listing the folder again each time the queue
/// had room (which cost O(files²) with a small `queue_capacity`). The backlog holds paths only,
/// and at most ``backlogLimit``; beyond it the folders are listed again once it has drained.
final class Intake: Sendable {
    static let tickMilliseconds = 50
    static let backlogLimit = 100_000

    private let serial = DispatchQueue(label: "darkroom.intake")
    private let queue: JobQueue<DaemonJob>
    private let logger: Logger
    /// Touched only on `serial` (every entry point hops there first), hence `nonisolated(unsafe)`.
    private nonisolated(unsafe) var state = State()
    private nonisolated(unsafe) var timer: (any DispatchSourceTimer)?

    private struct Candidate {
        var path: String
        /// Found by a relisting: a file with a report newer than its last change is done (kept
        /// in place, or left by a failed move) and is passed over, or it would be taken again at
        /// every relisting.
        var skipIfReported: Bool
    }

    private struct State {
        var watches = WatchSet(layouts: [], limits: .init(), configSHA256: "")
        var tracker = SettleTracker(capacity: 1)
        var backlog = [Candidate]()
        var backlogStart = 0
        var backlogMembers = Set<String>()
        /// Files to look at again, with the monotonic time (ns) before which they wait.
        var retries = [String: UInt64]()
        /// The backlog overflowed: list every watched folder again once it has drained.
        var relistNeeded = false

        var backlogIsEmpty: Bool { backlogStart == backlog.count }

        mutating func popBacklog() -> Candidate? {
            guard backlogStart < backlog.count else { return nil }
            let first = backlog[backlogStart]
            backlogStart += 1
            backlogMembers.remove(first.path)
            if backlogStart == backlog.count {
                backlog.removeAll(keepingCapacity: false)
                backlogStart = 0
            } else if backlogStart > 1024 && backlogStart * 2 > backlog.count {
                backlog.removeFirst(backlogStart)
                backlogStart = 0
            }
            return first
        }
    }

    /// Files settling at once: at least as many as the queue holds, so a small queue does not
    /// also throttle the settle check (each entry is a path and a `stat`, about 100 bytes).
    static func trackerCapacity(queueCapacity: Int) -> Int { max(queueCapacity, 1024) }

    init(queue: JobQueue<DaemonJob>, logger: Logger) {
        self.queue = queue
        self.logger = logger
        // Workers draining a small queue ask for more at once instead of idling until the next
        // tick; requests coalesce while one is pending.
        queue.onRoom { [weak self] in self?.refill() }
    }

    private let refillPending = Locked(false)

    private func refill() {
        guard refillPending.withLock({ pending in defer { pending = true }; return !pending }) else { return }
        serial.async { [self] in
            refillPending.withLock { $0 = false }
            guard timer != nil else { return }
            submitSettled(now: DispatchTime.now().uptimeNanoseconds)
        }
    }

    deinit { timer?.cancel() }

    // MARK: Entry points (any thread)

    /// Uses `watches` from now on; files waiting are forgotten (the scan that follows an
    /// install finds them again), retries are kept.
    func install(_ watches: WatchSet, capacity: Int) {
        serial.async { [self] in
            state.watches = watches
            state.tracker = SettleTracker(capacity: Self.trackerCapacity(queueCapacity: capacity))
            state.backlog = []
            state.backlogStart = 0
            state.backlogMembers = []
            state.relistNeeded = false
        }
    }

    /// Files found by a scan of the watcher (start-up, a new folder, an overflow).
    func offer(_ paths: [String], skipIfReported: Bool = false) {
        serial.async { [self] in
            for path in paths { enqueue(Candidate(path: path, skipIfReported: skipIfReported)) }
        }
    }

    /// A file announced by an event, or handed back by the queue because it changed while it
    /// waited or ran.
    func consider(_ path: String) {
        serial.async { [self] in enqueue(Candidate(path: path, skipIfReported: false)) }
    }

    /// Looks at `path` again in `seconds` (a writer still had it open; its report could not be
    /// written).
    func retry(_ path: String, afterSeconds seconds: Double) {
        let due = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        serial.async { [self] in state.retries[path] = due }
    }

    func start() {
        serial.async { [self] in
            guard timer == nil else { return }
            let t = DispatchSource.makeTimerSource(queue: serial)
            t.schedule(deadline: .now(), repeating: .milliseconds(Self.tickMilliseconds), leeway: .milliseconds(10))
            t.setEventHandler { [weak self] in self?.tick() }
            t.resume()
            timer = t
        }
    }

    /// Stops submitting (at shutdown); returns once the last tick is over.
    func stop() {
        serial.sync {
            timer?.cancel()
            timer = nil
        }
    }

    // MARK: On `serial`

    private func enqueue(_ candidate: Candidate) {
        if state.tracker.contains(candidate.path) || (state.backlogIsEmpty && state.tracker.count < state.tracker.capacity) {
            admit(candidate)
        } else if state.backlogMembers.contains(candidate.path) {
            return
        } else if state.backlogMembers.count < Self.backlogLimit {
            state.backlog.append(candidate)
            state.backlogMembers.insert(candidate.path)
        } else {
            state.relistNeeded = true
        }
    }

    /// Puts a candidate in the settle tracker (or updates it there).
    private func admit(_ candidate: Candidate) {
        let path = candidate.path
        // Waiting or running already: the queue hands it back when its job ends.
        if queue.noteChange(path) { return }
        guard let status = FileStatus.of(path), status.isRegularFile,
              let layout = state.watches.layout(for: path), layout.accepts(path) else { return }
        if candidate.skipIfReported && Self.isReported(path, status: status, layout: layout) { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if !state.tracker.observe(path, status: status, settleMilliseconds: layout.watch.settleMilliseconds, now: now) {
            state.relistNeeded = true  // not reached: admit is called with room
        }
    }

    private func tick() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.retries.filter { $0.value <= now }.map(\.key).sorted()
        for path in due {
            state.retries[path] = nil
            enqueue(Candidate(path: path, skipIfReported: false))
        }
        if state.relistNeeded, state.backlogIsEmpty, state.tracker.count * 2 < state.tracker.capacity {
            state.relistNeeded = false
            for layout in state.watches.layouts {
                for path in FolderWalk.files(in: layout.watch.path, layout: layout) {
                    enqueue(Candidate(path: path, skipIfReported: true))
                }
            }
        }
        while state.tracker.count < state.tracker.capacity, let next = state.popBacklog() { admit(next) }
        submitSettled(now: now)
    }

    /// Submits settled files while the queue has room.
    private func submitSettled(now: UInt64) {
        guard !state.tracker.isEmpty else { return }
        let room = queue.freeCapacity
        guard room > 0 else { return }
        for path in state.tracker.settled(now: now, limit: room, status: FileStatus.of) {
            guard let layout = state.watches.layout(for: path), let relative = layout.relativePath(of: path) else { continue }
            let job = DaemonJob(path: path, relative: relative, layout: layout, limits: state.watches.limits,
                                configSHA256: state.watches.configSHA256, queuedAt: Date())
            if queue.submit(job, key: path) == .full { enqueue(Candidate(path: path, skipIfReported: false)) }
        }
    }

    /// Whether `path` has a report written after the file last changed.
    static func isReported(_ path: String, status: FileStatus, layout: WatchLayout) -> Bool {
        guard let relative = layout.relativePath(of: path),
              let report = FileStatus.of(layout.reportPath(forRelative: relative)) else { return false }
        return report.changedNanoseconds > status.changedNanoseconds
    }
}
