import DarkroomCore
import Dispatch
import Glibc

/// Receives SIGTERM, SIGINT and SIGHUP synchronously, on a thread of its own, with `sigtimedwait`.
///
/// A process-directed signal is delivered to any one thread that does not block it. With the
/// signal ignored (as Dispatch signal sources needed) and one thread left unblocking it, that
/// thread swallowed the signal: 1 start in 40 lost a SIGTERM sent as the daemon said it was
/// ready. So the signals are blocked in the main thread before any other thread exists (threads
/// inherit the mask), and stay pending until this inbox takes them: a signal sent at any moment
/// after ``blockHandledSignals()`` is handled, however early.
public final class SignalInbox: Sendable {
    /// The signals the daemon handles.
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    private let stopRequested = Locked(false)
    private let finished = DispatchGroup()

    /// Blocks ``handled`` in the calling thread and so in every thread it starts afterwards.
    /// Call it first thing in `main`, before anything (Dispatch, Foundation) starts a thread.
    public static func blockHandledSignals() {
        var set = handledSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts taking signals (blocked or pending since ``blockHandledSignals()``) and calls
    /// `handler` for each, one at a time, on the inbox's thread.
    public init(_ handler: @escaping @Sendable (Int32) -> Void) {
        Self.blockHandledSignals()  // in case main did not: this thread's children inherit it
        DedicatedThread.start(name: "darkroom-signals", group: finished) { [stopRequested] in
            var set = Self.handledSet()
            // A short timeout, so that ``close()`` is heard without sending a signal of our own.
            var timeout = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            while !stopRequested.current {
                let sig = sigtimedwait(&set, nil, &timeout)
                if sig > 0 { handler(sig) }
            }
        }
    }

    /// Stops taking signals and waits for the inbox's thread to end. Signals sent afterwards
    /// stay pending (blocked), as they would in a process about to exit.
    public func close() {
        stopRequested.withLock { $0 = true }
        finished.wait()
    }

    private static func handledSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for sig in handled { sigaddset(&set, sig) }
        return set
    }

    /// Makes libdispatch start its event thread now, from this thread. That thread asks for
    /// nice -4 (libdispatch's user-interactive level); under the unit's `Nice=-4` it inherits -4
    /// and the call changes nothing, but started from a worker that has raised itself to nice 0
    /// it is refused (EACCES) and libdispatch writes "Failed to set thread priority" to the
    /// journal (docs/service.md, "A quiet journal"). Registering a signal source starts it from
    /// the calling thread (a timer source does not: a worker registers it). SIGURG is one nothing sends; the source is cancelled at once.
    public static func startDispatchEventThreadHere() {
        let source = DispatchSource.makeSignalSource(signal: SIGURG, queue: DispatchQueue(label: "darkroom.dispatch-start"))
        source.resume()
        source.cancel()
    }
}
