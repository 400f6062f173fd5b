/// How a render of a ``Pipeline`` lays out its bands: how many times each band is used, the
/// padding each band row carries, the bytes a band takes, and which node (if any) takes the
/// decoder's 8-bit rows as they are. One computation serves the run (``PipelineRun``) and the
/// memory estimate (``Pipeline/estimatedPeakBytes(executor:compactSource:)``), so the two
/// cannot disagree on what a band costs or how long it lives.
struct BandLayout {
    /// Columns past which a reach falls back to copying the rows it reads (a large translation).
    static let maxPad = 256

    let bandHeight: Int
    /// Per node and band: how many consumer bands (or compact-store fills) read it.
    let uses: [[Int]]
    /// Per node: columns of padding each side of a band row, filled per `padEdges`, so that
    /// consumers reading past the left or right edge need no copy.
    let pads: [Int]
    let padEdges: [EdgeMode]
    /// Per node: pixels from one band row to the next.
    let strides: [Int]
    /// The random-access node whose compact copy takes the decoder's 8-bit RGB rows directly.
    let directStore: Int?
    /// The kernel node that reads the source's bands as 8-bit RGB: they then hold `width × 3`
    /// bytes a row.
    let rgb8Reader: Int?

    /// - Parameter compactSource: whether the source can hand out its 8-bit RGB rows
    ///   (a ``CompactRowSource``; the codecs' decoders are).
    init(_ pipeline: Pipeline, compactSource: Bool) {
        let nodes = pipeline.nodes
        bandHeight = pipeline.bandHeight
        let counts = nodes.map { Self.bandCount($0.size.height, pipeline.bandHeight) }
        var uses = counts.map { [Int](repeating: 0, count: $0) }
        var reach = [Int](repeating: 0, count: nodes.count)
        var edges = [EdgeMode?](repeating: nil, count: nodes.count)
        for (c, node) in nodes.enumerated() {
            switch node.producer {
            case .source: break
            case .randomAccess(_, let input, _):
                // The store is filled band by band, each input band read once.
                for k in uses[input].indices { uses[input][k] += 1 }
            case .kernel(let kernel, let inputs):
                for k in 0..<counts[c] {
                    let regions = kernel.inputRegions(for: Self.bandRect(node.size, k, pipeline.bandHeight))
                    for (i, n) in inputs.enumerated() {
                        let edge = kernel.inputs[i].edge
                        if let range = Self.touched(nodes[n].size, regions[i], edge, pipeline.bandHeight) {
                            for b in range { uses[n][b] += 1 }
                        }
                        let width = nodes[n].size.width
                        let r = max(0, -regions[i].x, regions[i].maxX - width)
                        if r > 0, edges[n] == nil || edges[n] == edge {
                            edges[n] = edge
                            reach[n] = max(reach[n], r)
                        }
                    }
                }
            }
        }
        // The output strips are each used once, by the encoder.
        if let last = uses.indices.last { for k in uses[last].indices { uses[last][k] = 1 } }
        self.uses = uses
        pads = reach.map { min($0, Self.maxPad) }
        padEdges = edges.map { $0 ?? .clamp }
        strides = zip(nodes, pads).map { $0.size.width + 2 * $1 }
        // Only a decoder that hands out its 8-bit RGB rows can feed them to that node.
        let bytesReader = compactSource ? pipeline.rgb8Reader : nil
        switch bytesReader.map({ nodes[$0].producer }) {
        case .randomAccess?: (directStore, rgb8Reader) = (bytesReader, nil)
        case .kernel? where pads[0] == 0: (directStore, rgb8Reader) = (nil, bytesReader)
        default: (directStore, rgb8Reader) = (nil, nil)
        }
    }

    /// The pixels (16-byte units) one band of node `n` takes.
    func bandPixels(_ n: Int, width: Int) -> Int {
        guard n == 0, rgb8Reader != nil else { return bandHeight * strides[n] }
        // Bytes, in whole pixels, with the 2 bytes past the last row the 8-bit kernels may read.
        return (bandHeight * width * 3 + 2 + MemoryLayout<Pixel>.stride - 1) / MemoryLayout<Pixel>.stride
    }

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
        }
        return (lo / bandHeight)...(hi / bandHeight)
    }
}
