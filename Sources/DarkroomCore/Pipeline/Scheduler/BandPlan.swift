/// What the render of a ``Pipeline`` will read, worked out once from the graph before any pixel
/// is computed, and shared by the run (``PipelineRun``) and the memory estimate
/// (``Pipeline/estimatedPeakBytes(executor:)``), so the two cannot disagree.
///
/// One walk over the declared input regions of every band of every node, consumers before
/// producers: a band nobody will compute gives its inputs no use (the rows a crop after a blur
/// cuts away are dropped as decoded, not held to the end).
struct BandPlan {
    /// Columns of padding a band row may have each side. Readers reaching further (a large
    /// translation) get the few rows they read copied instead.
    static let maximumPad = 256

    let bandHeight: Int
    /// Per node and band: how many reads the render will make of it (the last one frees it).
    /// The output's bands are read once each, by the sink.
    let uses: [[Int]]
    /// Per node: columns of padding each side of a band row, filled as `padEdges` says, so
    /// readers past the left or right edge need no copy.
    let pads: [Int]
    let padEdges: [EdgeMode]
    /// Per node, per input (in the kernel's order): how many input bands one band of the node
    /// reads at most, and how far the first band read moves from one band to the next.
    let reach: [[(span: Int, advance: Int)]]

    init(_ nodes: [Pipeline.Node], bandHeight: Int) {
        self.bandHeight = bandHeight
        let counts = nodes.map { Self.bandCount($0.size.height, bandHeight) }
        var uses = counts.map { [Int](repeating: 0, count: $0) }
        var overhang = [Int](repeating: 0, count: nodes.count)
        var edges = [EdgeMode?](repeating: nil, count: nodes.count)
        var reach = nodes.map { _ in [(span: Int, advance: Int)]() }
        if let last = uses.indices.last { for k in uses[last].indices { uses[last][k] = 1 } }
        for c in nodes.indices.reversed() {
            let node = nodes[c]
            switch node.producer {
            case .source: break
            case .randomAccess(_, let input, _):
                // The compact copy is filled band by band, each input band read once.
                if uses[c].contains(where: { $0 > 0 }) { for k in uses[input].indices { uses[input][k] += 1 } }
            case .kernel(let kernel, let inputs):
                var spans = inputs.map { _ in (span: 0, advance: 0) }
                var previous = [Int?](repeating: nil, count: inputs.count)
                for k in 0..<counts[c] where uses[c][k] > 0 {
                    let regions = kernel.inputRegions(for: Self.bandRect(node.size, k, bandHeight))
                    for (i, n) in inputs.enumerated() {
                        let edge = kernel.inputs[i].edge
                        if let range = Self.touched(nodes[n].size, regions[i], edge, bandHeight) {
                            for b in range { uses[n][b] += 1 }
                            spans[i].span = max(spans[i].span, range.count)
                            if let p = previous[i] { spans[i].advance = max(spans[i].advance, range.lowerBound - p) }
                            previous[i] = range.lowerBound
                        }
                        let r = max(0, -regions[i].x, regions[i].maxX - nodes[n].size.width)
                        // Padding holds clamped or transparent columns; wrapped reads copy.
                        if r > 0, edge == .clamp || edge == .transparent, edges[n] == nil || edges[n] == edge {
                            edges[n] = edge
                            overhang[n] = max(overhang[n], r)
                        }
                    }
                }
                reach[c] = spans
            }
        }
        self.uses = uses
        pads = overhang.map { min($0, Self.maximumPad) }
        padEdges = edges.map { $0 ?? .clamp }
        self.reach = reach
    }

    /// Bytes one band of the widest node may take when bands are widened.
    static let widenedBandBytes = 16 << 20

    /// Rows per band for a graph of `nodes`: `requested`, widened (in steps of 16 rows, up to
    /// ``widenedBandBytes``) to the most rows a kernel reads above or below its output when a
    /// kernel ``PixelKernel/startsOverItsReach`` (a blur of sigma 100 by running sums reads ~390
    /// rows each side: with bands as tall, each input row is summed about three times instead
    /// of fifty) or when a reach passes twice the band. A kernel whose cost is per output row
    /// (a sampled Gaussian) gains nothing from taller bands below that and loses cache: sigma 5
    /// (18 rows each side) over 16-row bands takes less time than over 32-row ones.
    static func bandHeight(for nodes: [Pipeline.Node], requested: Int) -> Int {
        var reach = 0, width = 1, widens = false
        for node in nodes {
            width = max(width, node.size.width)
            // Only kernels whose input and output rows correspond (a resize's reads are not a halo).
            guard case .kernel(let kernel, _) = node.producer else { continue }
            let band = Rect(x: 0, y: 0, width: node.size.width, height: requested)
            for (input, region) in zip(kernel.inputs, kernel.inputRegions(for: band)) where input.size.height == node.size.height {
                let rows = max(band.y - region.y, region.maxY - band.maxY)
                reach = max(reach, rows)
                widens = widens || rows > 2 * requested || (rows > requested && kernel.startsOverItsReach)
            }
        }
        let cap = max(requested, widenedBandBytes / (width * MemoryLayout<Pixel>.stride))
        return widens ? min((reach + 15) / 16 * 16, cap) : requested
    }

    // MARK: Geometry

    static func bandCount(_ height: Int, _ bandHeight: Int) -> Int { (max(height, 0) + bandHeight - 1) / bandHeight }

    static func bandRect(_ size: Size, _ k: Int, _ bandHeight: Int) -> Rect {
        let y = k * bandHeight
        return Rect(x: 0, y: y, width: size.width, height: min(bandHeight, size.height - y))
    }

    /// The bands of an image of `size` that reading `rect` with `edge` touches.
    static func touched(_ size: Size, _ rect: Rect, _ edge: EdgeMode, _ bandHeight: Int) -> ClosedRange<Int>? {
        guard size.height > 0, size.width > 0, !rect.isEmpty else { return nil }
        var lo = rect.y, hi = rect.maxY - 1
        switch edge {
        case .clamp:
            lo = min(max(lo, 0), size.height - 1)
            hi = min(max(hi, 0), size.height - 1)
        case .transparent:
            lo = max(lo, 0)
            hi = min(hi, size.height - 1)
            guard lo <= hi, rect.x < size.width, rect.maxX > 0 else { return nil }
        case .repeat, .mirror:
            // Rows wrap: a read past an edge may touch any band; the few rows read are mapped.
            if lo < 0 || hi >= size.height {
                if rect.height >= size.height { return 0...((size.height - 1) / bandHeight) }
                let rows = (lo...hi).map { edge.index($0, extent: size.height)! }
                (lo, hi) = (rows.min()!, rows.max()!)
            }
        }
        return (lo / bandHeight)...(hi / bandHeight)
    }
}
