extension Pipeline {
    /// An upper bound on the pixel memory a render with `executor` holds at once (what
    /// ``RenderStats/peakPixelBytes`` measures), computed from the graph before any pixel is:
    /// the daemon's memory budget admits a job by it, so it is kept tight (every report gives
    /// it beside the measured peak; docs/architecture.md explains it).
    ///
    /// The formula, node by node from the output up (bands of B rows; ``BandPlan`` and ``BandSizes``
    /// give each band's uses and bytes, padding and 8-bit source rows included, as the run has them):
    /// - Strips are claimed in order, at most `concurrency + readAhead` ahead of the encoder, and
    ///   R = ``StripExecutor/rendersAtOnce(for:)`` are rendered at once (the other threads help with
    ///   their bands' columns), each holding one output band: R output bands. With R = 1 only the
    ///   oldest unfinished strip is in play (W = 1); with more, any W = `concurrency + readAhead`
    ///   consecutive ones.
    /// - A band lives from its first use to its last. If at most W consecutive bands of a
    ///   consumer are in play (started, and not all of their inputs' uses done), the input bands
    ///   alive lie in the union of the rows those W bands read: the largest such union over the
    ///   image, in bands, is the input's own window (summed over its consumers).
    /// - The decoder also reads up to `decodeAhead` bands ahead of demand: the source's window
    ///   is at least that. A random-access node holds its compact copy of the whole input, filled
    ///   band by band (two more input bands at a time); fed by the decoder directly, it needs no
    ///   source bands at all.
    /// - Where reads only move down the image, each band's lifetime in strips is known (the first
    ///   strip that needs it, the first strip of its last reader: ``lifetimes(_:)``), and at each
    ///   moment only the bands whose lifetime spans the strips in play are counted; the estimate
    ///   is the largest total over the moments, each node held to the smaller of the two bounds.
    /// - Scratch that kernels' views copy (a zero row past a transparent edge, rows read past
    ///   the padding): each of the R strips may hold one call's worth for every node at once
    ///   (a thread helping with pieces uses the views of the thread computing the band).
    ///
    /// - Parameter compactSource: whether the source hands out its 8-bit RGB rows (the codecs'
    ///   decoders do): an 8-bit opaque source's bands then take 3 bytes a pixel, not 16.
    package func estimatedPeakBytes(executor: StripExecutor = StripExecutor(), compactSource: Bool = false) -> Int {
        // Strips rendering at once, and how far apart they can be: with one, only the oldest
        // unfinished strip where reads only move down the image; otherwise (and for graphs
        // whose reads move up, where the in-order decoder makes bands long before they are
        // needed) anywhere in the encoder's window.
        let spread = executor.concurrency + executor.readAhead
        return estimatedPeakBytes(executor: executor, compactSource: compactSource,
                                  inPlay: executor.rendersAtOnce(for: self) == 1 ? 1 : spread, spread: spread)
    }

    private func estimatedPeakBytes(executor: StripExecutor, compactSource: Bool, inPlay: Int, spread: Int) -> Int {
        guard let last = nodes.indices.last else { return 0 }
        let plan = BandPlan(nodes, bandHeight: bandHeight)
        let sizes = BandSizes(self, plan: plan, compactSource: compactSource)
        let b = bandHeight, pixel = MemoryLayout<Pixel>.stride
        // Per kernel node and input: the input bands each of its bands reads.
        var reads = [[[ClosedRange<Int>?]]](repeating: [], count: nodes.count)
        let rendering = executor.rendersAtOnce(for: self)
        var window = [Int](repeating: 0, count: nodes.count)
        window[last] = inPlay
        var scratchPerThread = 0
        for c in nodes.indices.reversed() {
            let node = nodes[c]
            switch node.producer {
            case .source:
                break
            case .randomAccess(_, let input, _):
                window[input] += 2
            case .kernel(let kernel, let inputs):
                let count = BandPlan.bandCount(node.size.height, b)
                let w = max(1, min(window[c], count))
                var scratch = 0
                reads[c] = inputs.indices.map { _ in [] }
                for (i, n) in inputs.enumerated() {
                    let edge = kernel.inputs[i].edge
                    for k in 0..<count {
                        // A band nobody will compute reads nothing (``BandPlan``).
                        guard plan.uses[c][k] > 0 else { reads[c][i].append(nil); continue }
                        let region = kernel.inputRegions(for: BandPlan.bandRect(node.size, k, b))[i]
                        reads[c][i].append(BandPlan.touched(nodes[n].size, region, edge, b))
                        scratch = max(scratch, Self.scratchPixels(region, of: nodes[n].size, pad: plan.pads[n],
                                                                  edge: edge, padEdge: plan.padEdges[n]))
                    }
                    window[n] += Self.widestUnion(reads[c][i], window: w)
                }
                scratchPerThread += scratch * pixel
            }
        }
        let perStrip = stripNeeds(reads, concurrency: rendering)
        if perStrip == nil, inPlay < spread {
            return estimatedPeakBytes(executor: executor, compactSource: compactSource, inPlay: spread, spread: spread)
        }
        var fixed = 0
        var bound = [Int](repeating: 0, count: nodes.count)
        for (c, node) in nodes.enumerated() {
            bound[c] = c == last ? min(rendering, window[last]) : min(window[c], perStrip?[c] ?? .max)
            switch node.producer {
            case .source:
                if sizes.directStore != nil { bound[c] = 0 }  // the decoder writes into the compact copy
            case .randomAccess(_, let input, let format):
                let store = CompactImage(size: nodes[input].size, layout: format)
                fixed += node.size.area == 0 ? 0 : store.size.area * store.pixelBytes
            case .kernel:
                break
            }
        }
        // Bands alive at once: per node the smaller of its own bound and, at each moment, the
        // bands the strips in play can hold (``lifetimes``); the largest total over the moments.
        let alive = perStrip == nil ? nil : lifetimes(reads)
        let moments = alive.map { _ in BandPlan.bandCount(nodes[last].size.height, b) } ?? 1
        var worst = 0
        for k in 0..<max(moments, 1) {
            var bytes = 0
            for c in nodes.indices {
                var held = bound[c]
                if c == 0, let (born, death) = alive?[0] {
                    // The decoder reads in order: on its way to the last band the strips in play
                    // need, it also makes the bands between that only later strips need.
                    let reached = born.lastIndex { $0 <= k + inPlay - 1 } ?? -1
                    held = (0...max(reached, 0)).count { $0 <= reached && born[$0] != .max && death[$0] >= k }
                } else if c != last, let (born, death) = alive?[c] {
                    held = min(held, zip(born, death).count { $0 <= k + inPlay - 1 && $1 >= k })
                }
                if case .source = nodes[c].producer {
                    if sizes.directStore != nil { continue }
                    held = max(held, executor.decodeAhead)
                }
                bytes += held * sizes.bandPixels(c) * pixel
            }
            worst = max(worst, bytes)
        }
        return fixed + kernelHeldBytes + worst + rendering * scratchPerThread
    }

    /// For each node, each band's first and last output strip (`born`, `death`): a band is
    /// computed no earlier than the first strip that needs it (through every step) is in play,
    /// and freed once its last reader is computed, which is no later than that reader's first
    /// strip. With strips claimed in order, at most `window` at once from the oldest unfinished
    /// one `k`, the bands alive at a node are those with `born ≤ k + window − 1` and `death ≥ k`.
    /// Bands no strip needs have `born` = `Int.max`.
    private func lifetimes(_ reads: [[[ClosedRange<Int>?]]]) -> [(born: [Int], death: [Int])] {
        let last = nodes.count - 1
        var born = nodes.map { [Int](repeating: .max, count: BandPlan.bandCount($0.size.height, bandHeight)) }
        for k in 0..<born[last].count {
            var needs = [ClosedRange<Int>?](repeating: nil, count: nodes.count)
            needs[last] = k...k
            for c in nodes.indices.reversed() {
                guard let wanted = needs[c] else { continue }
                for j in wanted { born[c][j] = min(born[c][j], k) }
                guard case .kernel(_, let inputs) = nodes[c].producer else { continue }
                for (i, n) in inputs.enumerated() {
                    for j in wanted {
                        guard let r = reads[c][i][j] else { continue }
                        needs[n] = needs[n].map { min($0.lowerBound, r.lowerBound)...max($0.upperBound, r.upperBound) } ?? r
                    }
                }
            }
        }
        var death = born.map { [Int](repeating: -1, count: $0.count) }
        for c in nodes.indices {
            guard case .kernel(_, let inputs) = nodes[c].producer else { continue }
            for (i, n) in inputs.enumerated() {
                for (j, r) in reads[c][i].enumerated() {
                    guard let r, born[c][j] != .max else { continue }
                    for m in r where m < death[n].count { death[n][m] = max(death[n][m], born[c][j]) }
                }
            }
        }
        return zip(born, death).map { ($0, $1) }
    }

    /// A second bound on the bands of each node alive at once, for graphs whose bands read
    /// input rows that only move down as the band does (resizes, blurs, crops, convolutions):
    /// output strips are claimed in order, so a band alive is either needed by one of the at
    /// most `concurrency` strips being rendered, or shared by the last strip claimed and the
    /// next. With `needs(k)` the bands of a node that output strip `k` needs (through every
    /// step), that is `concurrency × max |needs(k)| + max |needs(k) ∩ needs(k + 1)|`. Nil when
    /// some band's reads move up or a random-access node reads a whole input.
    private func stripNeeds(_ reads: [[[ClosedRange<Int>?]]], concurrency: Int) -> [Int]? {
        guard let last = nodes.indices.last else { return nil }
        for (c, node) in nodes.enumerated() {
            if case .randomAccess = node.producer { return nil }
            for ranges in reads[c] {
                let present = ranges.compactMap { $0 }
                for (a, z) in zip(present, present.dropFirst()) where z.lowerBound < a.lowerBound || z.upperBound < a.upperBound {
                    return nil
                }
            }
        }
        var span = [Int](repeating: 0, count: nodes.count), overlap = span
        var previous = [ClosedRange<Int>?](repeating: nil, count: nodes.count)
        for k in 0..<BandPlan.bandCount(nodes[last].size.height, bandHeight) {
            var needs = [ClosedRange<Int>?](repeating: nil, count: nodes.count)
            needs[last] = k...k
            for c in nodes.indices.reversed() {
                guard let wanted = needs[c], case .kernel(_, let inputs) = nodes[c].producer else { continue }
                for (i, n) in inputs.enumerated() {
                    for j in wanted {
                        guard let r = reads[c][i][j] else { continue }
                        needs[n] = needs[n].map { min($0.lowerBound, r.lowerBound)...max($0.upperBound, r.upperBound) } ?? r
                    }
                }
            }
            for n in nodes.indices {
                guard let now = needs[n] else { continue }
                span[n] = max(span[n], now.count)
                if let before = previous[n], before.upperBound >= now.lowerBound {
                    overlap[n] = max(overlap[n], before.upperBound - max(before.lowerBound, now.lowerBound) + 1)
                }
                previous[n] = now
            }
        }
        return zip(span, overlap).map { concurrency * $0 + $1 }
    }

    /// The most bands any `window` consecutive consumer bands touch together.
    private static func widestUnion(_ ranges: [ClosedRange<Int>?], window: Int) -> Int {
        var widest = 0
        for k in ranges.indices {
            var lo = Int.max, hi = Int.min
            for j in k..<min(k + window, ranges.count) {
                guard let r = ranges[j] else { continue }
                lo = min(lo, r.lowerBound)
                hi = max(hi, r.upperBound)
            }
            if lo <= hi { widest = max(widest, hi - lo + 1) }
        }
        return widest
    }

    /// The pixels a view of `region` copies rather than points into (see ``PipelineRun``'s
    /// leases): the whole region when it reaches past the padding, one zero row when it reads
    /// past a transparent top or bottom edge, nothing otherwise.
    private static func scratchPixels(_ region: Rect, of size: Size, pad: Int, edge: EdgeMode, padEdge: EdgeMode) -> Int {
        let inside = region.x >= 0 && region.maxX <= size.width
        let inPad = region.x >= -pad && region.maxX <= size.width + pad && edge == padEdge
        guard inside || inPad else { return region.width * region.height }
        let pastTopOrBottom = region.y < 0 || region.maxY > size.height
        return edge == .transparent && pastTopOrBottom ? region.width : 0
    }
}
