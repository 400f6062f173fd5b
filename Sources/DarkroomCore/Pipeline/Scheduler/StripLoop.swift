import Dispatch

/// The output strips of one render and the loops that move them: helper threads claim and render
/// strips (the first also keeps the sequential decoder ahead of demand), and the calling thread
/// writes them to the sink in order, rendering strips itself while the next one is not ready.
///
/// At most `window` strips are claimed and not yet written, and at most `inPlay` are being
/// rendered at once. The strip counters are guarded by the run's condition; `helpers` and the
/// group are the calling thread's.
final class StripLoop<Quantiser: StripQuantiser>: @unchecked Sendable {
    private let run: PipelineRun
    private let quantiser: Quantiser
    private let executor: StripExecutor
    private let slots: ComputeSlots
    private let strips: Int, window: Int, inPlay: Int
    private let output: Int, size: Size, band: Int

    private var nextClaim = 0
    private var nextWrite = 0
    /// Strips claimed and not yet rendered.
    private var rendering = 0
    /// Set when the calling thread has written the last strip or seen the render fail.
    private var written = false
    private var ready = [Int: Quantiser.Strip]()

    private let group = DispatchGroup()
    private var helpers = 0

    init(_ run: PipelineRun, of pipeline: Pipeline, quantiser: Quantiser, executor: StripExecutor, slots: ComputeSlots) {
        (self.run, self.quantiser, self.executor, self.slots) = (run, quantiser, executor, slots)
        strips = run.bandCountOfOutput
        window = executor.concurrency + executor.readAhead
        inPlay = executor.rendersAtOnce(for: pipeline)
        (output, size, band) = (pipeline.nodes.count - 1, pipeline.outputSize, pipeline.bandHeight)
    }

    /// How many strips the output is cut into.
    var count: Int { strips }

    /// Starts helpers on slots that are free now, up to the executor's concurrency. Called at the
    /// start and again as strips are claimed: a slot another job frees (its file is being written,
    /// or it ended) is taken up mid-render, so cores do not idle.
    func recruit() {
        let wanted = min(executor.concurrency, strips) - 1 - helpers
        guard wanted > 0 else { return }
        for _ in 0..<slots.tryAcquire(upTo: wanted) {
            // The decoder is sequential, so the first helper keeps it busy ahead of demand and
            // renders strips only when the read-ahead is full; the others render strips.
            let decodes = helpers == 0
            helpers += 1
            DedicatedThread.start(name: "darkroom-render", group: group) { [self] in
                defer { slots.release() }
                help(decodes: decodes)
            }
        }
    }

    /// Writes every strip to `sink` in order on the calling thread, rendering while the next one
    /// is not ready, till the last is written or the render fails; then waits for the helpers.
    /// Returns the spans spent in `sink.write` and the render's failure, if any.
    func write<Sink: StripSink>(into sink: inout Sink, deadline: Deadline?) -> (encoding: WallSpans, failure: Error?)
    where Sink.Quantiser == Quantiser {
        var encoding = WallSpans()
        run.condition.lock()
        while nextWrite < strips, run.failure == nil {
            if let strip = ready.removeValue(forKey: nextWrite) {
                let k = nextWrite
                run.condition.unlock()
                let start = Deadline.now()
                do {
                    try run.checkDeadline()
                    try sink.write(strip, rows: k * band..<min((k + 1) * band, size.height))
                    deadline?.cancellation?.wrote(strips: k + 1, of: strips)
                } catch {
                    run.fail(error)
                }
                encoding.record(from: start, to: Deadline.now())
                run.condition.lock()
                nextWrite += 1
                run.condition.broadcast()
            } else if let k = claim() {
                run.condition.unlock()
                recruit()
                render(k)
                run.condition.lock()
            } else if run.helpWithPiece() {
                continue
            } else {
                run.condition.wait()
            }
        }
        let failure = run.failure
        written = true  // every strip is out (or the render failed): helpers stop
        run.condition.broadcast()
        run.condition.unlock()
        group.wait()
        return (encoding, failure)
    }

    /// A helper's loop, till the last strip is rendered (its bands' pieces are work too), the
    /// render fails, or another job wants the slot back. Every check and the wait happen under
    /// the lock, so no broadcast is missed.
    private func help(decodes: Bool) {
        run.condition.lock()
        while run.failure == nil, !written, nextClaim < strips || rendering > 0 {
            if slots.isWanted { break }
            if decodes {
                run.condition.unlock()
                let decoded = run.decodeAhead(readAhead: executor.decodeAhead)
                run.condition.lock()
                // The lock was let go: what ends the loop may have changed meanwhile (and its
                // broadcast gone unheard), so check it again before any wait.
                if decoded || run.failure != nil || written || nextClaim >= strips && rendering == 0 { continue }
            }
            // Help with the strip in play before starting another (``StripExecutor/stripsInPlay``).
            if run.helpWithPiece() { continue }
            guard let k = claim() else { run.condition.wait(); continue }
            run.condition.unlock()
            render(k)
            run.condition.lock()
        }
        run.condition.unlock()
    }

    /// Claims the next strip if the window allows and fewer than `inPlay` are being rendered;
    /// nil when there is none to claim now. Called with the lock held.
    private func claim() -> Int? {
        guard run.failure == nil, nextClaim < strips, nextClaim < nextWrite + window, rendering < inPlay else { return nil }
        defer { nextClaim += 1; rendering += 1 }
        return nextClaim
    }

    /// Renders strip `k` and quantises it for the sink, on this thread; a failure fails the run.
    private func render(_ k: Int) {
        var strip: Quantiser.Strip?
        do {
            if run.rgb8Writer == output {
                strip = try run.withRGB8Band(output, k) { quantiser.prepare(rgb8: $0) }
            } else {
                let lease = try run.lease(output, BandPlan.bandRect(size, k, band), .clamp)
                strip = quantiser.prepare(lease.view)
                run.end(lease)
            }
        } catch {
            run.fail(error)
        }
        run.condition.lock()
        if let strip { ready[k] = strip }
        rendering -= 1  // another may be claimed
        run.condition.broadcast()
        run.condition.unlock()
    }
}
