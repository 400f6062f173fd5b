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
        let strips = StripLoop(run, of: self, quantiser: quantiser, executor: executor, slots: slots)
        deadline?.cancellation?.wrote(strips: 0, of: strips.count)
        slots.acquire()
        strips.recruit()
        let (encoding, failure) = strips.write(into: &sink, deadline: deadline)
        slots.release()
        if let failure { throw failure }
        let (decode, encode) = WallSpans.shares(run.decodeSpans(), encoding)
        return RenderStats(nodes: run.nodeTimes(), peakPixelBytes: run.memory.peakBytes,
                           decodeSeconds: decode, encodeSeconds: encode,
                           seconds: Double(Deadline.now() - started) / 1e9)
    }
}
