extension Pipeline {
    /// An upper bound on the pixel memory a render with `executor` holds at once (what
    /// ``RenderStats/peakPixelBytes`` measures), computed from the graph before any pixel is:
    /// the daemon's memory budget admits a job by it.
    ///
    /// Per node: the bands its consumers can hold at once, from the strips in flight at the
    /// output back through each consumer's reach (how many bands one consumer band reads, and
    /// how far consecutive ones advance), times the band's bytes; plus compact whole-image
    /// copies for random-access kernels.
    public func estimatedPeakBytes(executor: StripExecutor = StripExecutor()) -> Int {
        let b = bandHeight
        let plan = BandPlan(nodes, bandHeight: b)
        var alive = [Int](repeating: 0, count: nodes.count)
        var bytes = 0
        guard let last = nodes.indices.last else { return 0 }
        alive[last] = executor.concurrency + executor.readAhead + 1
        alive[0] = executor.decodeAhead
        for c in nodes.indices.reversed() {
            let node = nodes[c]
            let width = node.size.width + 2 * BandPlan.maximumPad
            bytes += alive[c] * b * width * MemoryLayout<Pixel>.stride
            switch node.producer {
            case .source:
                break
            case .randomAccess(_, let input, let layout):
                bytes += node.size.area == 0 ? 0 : nodes[input].size.area * (layout == .rgb8 ? 3 : 8)
                alive[input] += 2
            case .kernel(_, let inputs):
                for (i, n) in inputs.enumerated() {
                    let (span, advance) = plan.reach[c][i]
                    alive[n] += span + max(alive[c] - 1, 0) * advance + 1
                }
            }
        }
        // Lease scratch (zero rows, copies far past an edge) and rounding.
        return bytes + bytes / 10 + (1 << 20)
    }
}
