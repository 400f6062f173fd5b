import Synchronization

/// A render's owner's handle on it: ``cancel()`` stops the render at its next band (the
/// scheduler checks between bands and strips; kernels know nothing of it), with
/// ``PipelineError/cancelled``; and how far the render got, in output strips, for whoever
/// watches it. Handed to a render inside its ``Deadline``.
public final class Cancellation: Sendable, Hashable {
    private let cancelled = Atomic<Bool>(false)
    private let written = Atomic<Int>(0)
    private let total = Atomic<Int>(0)

    public init() {}

    /// Stops the render at its next band; a render not started yet stops before its first.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Output strips written so far and of how many, of the pipeline running now (an analysis
    /// pass or an output; each starts again from zero).
    public var progress: (strips: Int, of: Int) { (written.load(ordering: .relaxed), total.load(ordering: .relaxed)) }

    /// Called by the scheduler as each output strip is written.
    func wrote(strips: Int, of count: Int) {
        total.store(count, ordering: .relaxed)
        written.store(strips, ordering: .relaxed)
    }

    public static func == (a: Cancellation, b: Cancellation) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
