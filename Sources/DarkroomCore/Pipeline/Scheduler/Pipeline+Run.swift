import Dispatch

extension Pipeline {
    /// Renders the pipeline from `source` into `sink`: output strips are rendered in parallel
    /// (each pulling the bands it needs from the nodes above, down to the decoder), converted by
    /// the sink's quantiser on the thread that rendered them, and handed to `sink.write` in
    /// order on the calling thread, which renders strips too while the next one is not ready.
    ///
    /// At most `concurrency + readAhead` strips are in flight, so memory depends on the width of
    /// the image and the chain, not on its height. A decoder or encoder error, the deadline or
    /// its cancellation stops every thread at its next band; the error is rethrown and nothing
    /// more is written.
    ///
    /// Its threads come from the process's compute slots, shared with every other render.
    public func run<Sink: StripSink>(from source: any RowSource, into sink: inout Sink,
                                     executor: StripExecutor = StripExecutor(), deadline: Deadline? = nil) throws -> RenderStats {
        try run(from: source, into: &sink, executor: executor, deadline: deadline, slots: .shared)
    }

    /// ``run(from:into:executor:deadline:)`` with its threads from `slots` (a test's own pool).
    package func run<Sink: StripSink>(from source: any RowSource, into sink: inout Sink,
                                      executor: StripExecutor = StripExecutor(), deadline: Deadline? = nil,
                                      slots: ComputeSlots) throws -> RenderStats {
        precondition(source.size == sourceSize, "the source delivers \(source.size), the pipeline expects \(sourceSize)")
        if let failure = kernelFailure { throw PipelineError.kernelCannotRender(failure) }
        let started = Deadline.now()
        let quantiser = sink.quantiser
        let run = PipelineRun(self, source: source, deadline: deadline, rgb8Sink: quantiser.takesRGB8Rows, threads: executor.concurrency)
        let table = StripTable<Sink.Quantiser.Strip>()
        let strips = run.bandCountOfOutput
        deadline?.cancellation?.wrote(strips: 0, of: strips)
        let window = executor.concurrency + executor.readAhead
        let inPlay = executor.rendersAtOnce(for: self)
        let output = nodes.count - 1
        let size = outputSize, band = bandHeight

        /// Claims the next strip if the window allows, and fewer than `inPlay` strips are being
        /// rendered; nil when there is none to claim now.
        @Sendable func claim() -> Int? {
            guard run.failure == nil, table.nextClaim < strips, table.nextClaim < table.nextWrite + window,
                  table.rendering < inPlay else { return nil }
            defer { table.nextClaim += 1; table.rendering += 1 }
            return table.nextClaim
        }
        /// A strip rendered (or failed): another may be claimed. Called with the lock held.
        @Sendable func rendered() {
            table.rendering -= 1
            run.condition.broadcast()
        }
        @Sendable func render(_ k: Int) {
            do {
                let strip: Sink.Quantiser.Strip
                if run.rgb8Writer == output {
                    strip = try run.withRGB8Band(output, k) { quantiser.prepare(rgb8: $0) }
                } else {
                    let lease = try run.lease(output, BandPlan.bandRect(size, k, band), .clamp)
                    strip = quantiser.prepare(lease.view)
                    run.end(lease)
                }
                run.condition.lock()
                table.ready[k] = strip
                rendered()
                run.condition.unlock()
            } catch {
                run.fail(error)
                run.condition.lock()
                rendered()
                run.condition.unlock()
            }
        }

        slots.acquire()
        let group = DispatchGroup()
        var helpers = 0
        /// Starts helpers on slots that are free now, up to the executor's concurrency. Called
        /// at the start and again as strips are claimed: a slot another job frees (its file is
        /// being written, or it ended) is taken up mid-render, so cores do not idle.
        func recruit() {
            let wanted = min(executor.concurrency, strips) - 1 - helpers
            guard wanted > 0 else { return }
            for _ in 0..<slots.tryAcquire(upTo: wanted) {
                let decodes = helpers == 0
                helpers += 1
                // The decoder is sequential, so the first helper keeps it busy ahead of demand
                // and renders strips only when the read-ahead is full; the others render strips.
                DedicatedThread.start(name: "darkroom-render", group: group) {
                    defer { slots.release() }
                    run.condition.lock()
                    // Every check and the wait happen under the lock, so no broadcast is missed.
                    // Till the last strip is rendered: its bands' pieces are work too.
                    while run.failure == nil, !table.written, table.nextClaim < strips || table.rendering > 0 {
                        if slots.isWanted { break }
                        if decodes {
                            run.condition.unlock()
                            let decoded = run.decodeAhead(readAhead: executor.decodeAhead)
                            run.condition.lock()
                            // The lock was let go: what ends the loop may have changed meanwhile
                            // (and its broadcast gone unheard), so check it again before any wait.
                            if decoded || run.failure != nil || table.written || table.nextClaim >= strips && table.rendering == 0 {
                                continue
                            }
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
            }
        }
        recruit()

        var encoding = WallSpans()
        run.condition.lock()
        while table.nextWrite < strips, run.failure == nil {
            if let strip = table.ready.removeValue(forKey: table.nextWrite) {
                let k = table.nextWrite
                run.condition.unlock()
                let start = Deadline.now()
                do {
                    try run.checkDeadline()
                    let rows = k * band..<min((k + 1) * band, size.height)
                    try sink.write(strip, rows: rows)
                    deadline?.cancellation?.wrote(strips: k + 1, of: strips)
                } catch {
                    run.fail(error)
                }
                encoding.record(from: start, to: Deadline.now())
                run.condition.lock()
                table.nextWrite += 1
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
        table.written = true  // every strip is out (or the render failed): helpers stop
        run.condition.broadcast()
        run.condition.unlock()
        group.wait()
        slots.release()
        if let failure { throw failure }
        let (decode, encode) = WallSpans.shares(run.decodeSpans(), encoding)
        return RenderStats(nodes: run.nodeTimes(), peakPixelBytes: run.memory.peakBytes,
                           decodeSeconds: decode, encodeSeconds: encode,
                           seconds: Double(Deadline.now() - started) / 1e9)
    }
}

/// Which strips are claimed, written and waiting; guarded by the run's condition.
private final class StripTable<Strip>: @unchecked Sendable {
    var nextClaim = 0
    var nextWrite = 0
    /// Strips claimed and not yet rendered.
    var rendering = 0
    /// Set when the calling thread has written the last strip or seen the render fail.
    var written = false
    var ready = [Int: Strip]()
}
