import Foundation

/// One render of a ``Pipeline``: the bands each node has computed, shared by the threads that
/// render output strips.
///
/// A node's output is cut into bands of `bandHeight` full-width rows. A band is computed once,
/// by the first thread that needs it (others wait for it), kept while later requests still need
/// it, and freed after its last use: the number of uses of every band is counted before the
/// render starts, from the regions each consumer band declares. This is the line cache of
/// libvips and Halide's `store_root().compute_at()`: rows that neighbouring strips share are
/// computed once, and memory follows the width of the image, not its height.
///
/// Thread safety: all mutable state is guarded by `condition`; band pixels are written by the
/// one thread computing the band, before it is published under the lock, and only read after.
final class PipelineRun: @unchecked Sendable {
    private enum BandState {
        case pending
        case computing
        case ready(UnsafeMutablePointer<Pixel>)
        case released
    }

    let pipeline: Pipeline
    let memory = PixelMemory()
    let condition = NSCondition()
    private let source: any RowSource
    private let deadline: Deadline?
    private let bandHeight: Int
    /// Per node: columns of padding each side of a band row, filled per `padEdges`, so that
    /// consumers reading past the left or right edge need no copy.
    private let pads: [Int]
    private let padEdges: [EdgeMode]
    private let strides: [Int]
    private let stores: [CompactImage?]
    /// The random-access node whose compact copy takes the decoder's 8-bit RGB rows directly
    /// (``Pipeline/rgb8Reader``); the decoder then reads ahead for nobody else.
    private let directStore: Int?
    /// The kernel node that reads the source's bands as 8-bit RGB (``Pipeline/rgb8Reader``):
    /// the source's bands then hold `width × 3` bytes a row.
    private let rgb8Reader: Int?

    // Guarded by `condition`.
    private var states: [[BandState]]
    private var uses: [[Int]]
    private var nanoseconds: [UInt64]
    private var sourceBusy = false
    private var nextSourceBand = 0
    /// Source bands below this are all freed (the decoder's read-ahead is measured from it).
    private var sourceFreedPrefix = 0
    private var storeFilled: [Int]
    private var storeBusy: [Bool]
    /// The first error any thread met; every thread stops at its next step.
    private(set) var failure: (any Error)?

    init(_ pipeline: Pipeline, source: any RowSource, deadline: Deadline?) {
        self.pipeline = pipeline
        self.source = source
        self.deadline = deadline
        bandHeight = pipeline.bandHeight
        let nodes = pipeline.nodes
        let counts = nodes.map { Self.bandCount($0.size.height, pipeline.bandHeight) }
        var uses = counts.map { [Int](repeating: 0, count: $0) }
        var reach = [Int](repeating: 0, count: nodes.count)
        var edges = [EdgeMode?](repeating: nil, count: nodes.count)
        var stores = [CompactImage?](repeating: nil, count: nodes.count)
        // The output strips are each used once, by the encoder.
        if let last = uses.indices.last { for k in uses[last].indices { uses[last][k] = 1 } }
        // Consumers before producers, so a band nobody will compute (the rows a crop after a blur
        // cuts away) gives its inputs no use: they are dropped as decoded, not kept to the end.
        for c in nodes.indices.reversed() {
            let node = nodes[c]
            switch node.producer {
            case .source: break
            case .randomAccess(_, let input, let layout):
                // The store is filled band by band, each input band read once.
                if uses[c].contains(where: { $0 > 0 }) { for k in uses[input].indices { uses[input][k] += 1 } }
                stores[c] = CompactImage(size: nodes[input].size, layout: layout)
            case .kernel(let kernel, let inputs):
                for k in 0..<counts[c] {
                    let regions = kernel.inputRegions(for: Self.bandRect(node.size, k, pipeline.bandHeight))
                    for (i, n) in inputs.enumerated() {
                        let edge = kernel.inputs[i].edge
                        if uses[c][k] > 0, let range = Self.touched(nodes[n].size, regions[i], edge, pipeline.bandHeight) {
                            for b in range { uses[n][b] += 1 }
                        }
                        let width = nodes[n].size.width
                        let r = max(0, -regions[i].x, regions[i].maxX - width)
                        // Padding holds clamped or transparent columns; wrapped reads copy.
                        if r > 0, edge == .clamp || edge == .transparent, edges[n] == nil || edges[n] == edge {
                            edges[n] = edge
                            reach[n] = max(reach[n], r)
                        }
                    }
                }
            }
        }
        // Wider reaches (a large translation) fall back to copying the few rows they read.
        pads = reach.map { min($0, 256) }
        padEdges = edges.map { $0 ?? .clamp }
        strides = zip(nodes, pads).map { $0.size.width + 2 * $1 }
        self.uses = uses
        self.stores = stores
        // Only a decoder that hands out its 8-bit RGB rows can feed them to that node.
        let bytesReader = source is any CompactRowSource && source.isOpaque && source.isEightBit ? pipeline.rgb8Reader : nil
        switch bytesReader.map({ nodes[$0].producer }) {
        case .randomAccess?: (directStore, rgb8Reader) = (bytesReader, nil)
        case .kernel? where pads[0] == 0: (directStore, rgb8Reader) = (nil, bytesReader)
        default: (directStore, rgb8Reader) = (nil, nil)
        }
        for store in stores { if let store { memory.allocated(store.size.area * store.pixelBytes) } }
        states = counts.map { [BandState](repeating: .pending, count: $0) }
        nanoseconds = [UInt64](repeating: 0, count: nodes.count)
        storeFilled = [Int](repeating: 0, count: nodes.count)
        storeBusy = [Bool](repeating: false, count: nodes.count)
    }

    deinit {
        for (n, bands) in states.enumerated() {
            for case .ready(let p) in bands { memory.release(p, count: bandPixels(n)) }
        }
        for store in stores { if let store { memory.freed(store.size.area * store.pixelBytes) } }
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

    var bandCountOfOutput: Int { states[states.count - 1].count }

    private func bandPixels(_ n: Int) -> Int {
        guard n == 0, rgb8Reader != nil else { return bandHeight * strides[n] }
        // Bytes, in whole pixels, with the 2 bytes past the last row the 8-bit kernels may read.
        return (bandHeight * rgb8RowBytes + 2 + MemoryLayout<Pixel>.stride - 1) / MemoryLayout<Pixel>.stride
    }

    private var rgb8RowBytes: Int { pipeline.nodes[0].size.width * 3 }

    // MARK: Bands

    /// Band `k` of node `n`, computing it (and what it needs) if no thread has yet.
    func acquire(_ n: Int, _ k: Int) throws -> UnsafeMutablePointer<Pixel> {
        condition.lock()
        while true {
            if let failure { condition.unlock(); throw failure }
            switch states[n][k] {
            case .ready(let pixels):
                condition.unlock()
                return pixels
            case .released:
                condition.unlock()
                preconditionFailure("band \(k) of node \(n) was freed while still needed (use count wrong)")
            case .computing:
                condition.wait()
            case .pending where n == 0:
                if sourceBusy { condition.wait(); continue }
                runDecoder(through: k)
            case .pending:
                states[n][k] = .computing
                condition.unlock()
                do {
                    try checkDeadline()
                    let pixels = try compute(n, k)
                    condition.lock()
                    states[n][k] = .ready(pixels)
                    condition.broadcast()
                } catch {
                    fail(error)
                    throw error
                }
            }
        }
    }

    /// One use of band `k` of node `n` is over; the last frees it.
    func release(_ n: Int, _ k: Int) {
        condition.lock()
        defer { condition.unlock() }
        uses[n][k] -= 1
        if uses[n][k] <= 0, case .ready(let pixels) = states[n][k] {
            memory.release(pixels, count: bandPixels(n))
            states[n][k] = .released
            if n == 0 { advanceFreedPrefix() }
        }
    }

    /// Called with the lock held.
    private func advanceFreedPrefix() {
        let before = sourceFreedPrefix
        while sourceFreedPrefix < states[0].count, case .released = states[0][sourceFreedPrefix] { sourceFreedPrefix += 1 }
        // A thread waiting to decode ahead may go on.
        if sourceFreedPrefix != before { condition.broadcast() }
    }

    /// Decodes the next source band ahead of demand, if the decoder is idle and fewer than
    /// `readAhead` decoded bands wait for their consumers. Lets one thread keep the sequential
    /// decoder busy while the others filter and encode (libvips' sequential read-ahead).
    /// Returns false when there was nothing to do.
    func decodeAhead(readAhead: Int) -> Bool {
        condition.lock()
        guard directStore == nil, failure == nil, !sourceBusy, nextSourceBand < states[0].count,
              nextSourceBand - sourceFreedPrefix < readAhead else {
            condition.unlock()
            return false
        }
        runDecoder(through: nextSourceBand)
        condition.unlock()
        return true
    }

    /// Called with the lock held and the decoder idle: decodes the next source bands up to `k`
    /// outside the lock, and returns with it held again, any error recorded as the run's failure.
    private func runDecoder(through k: Int) {
        sourceBusy = true
        let first = nextSourceBand
        condition.unlock()
        var error: (any Error)?
        do { try decode(from: first, through: k) } catch let e { error = e }
        condition.lock()
        sourceBusy = false
        if let error, failure == nil { failure = error }
        condition.broadcast()
    }

    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    private func checkDeadline() throws {
        if let deadline, deadline.hasPassed { throw PipelineError.timedOut }
    }

    /// Decodes source bands in order up to `k`; bands nobody needs are dropped at once.
    private func decode(from first: Int, through k: Int) throws {
        let size = pipeline.nodes[0].size, pad = pads[0], stride = strides[0]
        for b in first...k {
            try checkDeadline()
            let rect = Self.bandRect(size, b, bandHeight)
            let pixels = memory.pixels(bandPixels(0))
            let start = Deadline.now()
            do {
                if rgb8Reader != nil {
                    try (source as! any CompactRowSource).readRGB8Rows(
                        count: rect.height, into: UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
                        rowBytes: rgb8RowBytes)
                } else {
                    try source.readRows(count: rect.height, into: pixels + pad, stride: stride)
                    finish(0, pixels, rows: rect.height)
                }
            } catch {
                memory.release(pixels, count: bandPixels(0))
                throw error
            }
            let spent = Deadline.now() - start
            condition.lock()
            nanoseconds[0] += spent
            if uses[0][b] > 0 {
                states[0][b] = .ready(pixels)
            } else {
                memory.release(pixels, count: bandPixels(0))
                states[0][b] = .released
                advanceFreedPrefix()
            }
            nextSourceBand = b + 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Computes band `k` of kernel node `n` from leases on its inputs.
    private func compute(_ n: Int, _ k: Int) throws -> UnsafeMutablePointer<Pixel> {
        let node = pipeline.nodes[n]
        let rect = Self.bandRect(node.size, k, bandHeight)
        switch node.producer {
        case .source:
            preconditionFailure("the source is decoded, not computed")
        case .kernel(let kernel as any RGB8InputKernel, _) where n == rgb8Reader:
            let region = kernel.inputRegions(for: rect)[0]
            let bands = Self.touched(pipeline.nodes[0].size, region, .clamp, bandHeight)
            precondition(!region.isEmpty && region.intersection(Rect(size: pipeline.nodes[0].size)) == region,
                         "an 8-bit RGB reader reads outside its input")
            var bases = [UnsafeMutableRawPointer]()
            defer { if let bands { for k in bands.prefix(bases.count) { release(0, k) } } }
            if let bands { for k in bands { bases.append(UnsafeMutableRawPointer(try acquire(0, k))) } }
            let rows = (region.y..<region.maxY).map { y -> UnsafePointer<UInt8> in
                let k = y / bandHeight
                let base = bases[k - bands!.lowerBound].assumingMemoryBound(to: UInt8.self)
                return UnsafePointer(base + (y - k * bandHeight) * rgb8RowBytes + 3 * region.x)
            }
            let pixels = memory.pixels(bandPixels(n))
            let start = Deadline.now()
            rows.withUnsafeBufferPointer { rows in
                kernel.render(rgb8: RGB8RegionView(rect: region, rows: rows.baseAddress!),
                              into: RegionTarget(rect: rect, origin: pixels + pads[n], stride: strides[n]))
            }
            finish(n, pixels, rows: rect.height)
            account(n, since: start)
            return pixels
        case .kernel(let kernel, let inputs):
            let regions = kernel.inputRegions(for: rect)
            var leases = [Lease]()
            defer { for lease in leases { end(lease) } }
            for (i, input) in inputs.enumerated() {
                leases.append(try lease(input, regions[i], kernel.inputs[i].edge))
            }
            let pixels = memory.pixels(bandPixels(n))
            let start = Deadline.now()
            kernel.render(leases.map(\.view), into: RegionTarget(rect: rect, origin: pixels + pads[n], stride: strides[n]))
            finish(n, pixels, rows: rect.height)
            account(n, since: start)
            return pixels
        case .randomAccess(let kernel, let input, _):
            let region = kernel.inputRegions(for: rect)[0]
            let inputHeight = pipeline.nodes[input].size.height
            try fill(n, from: input, through: min(max(region.maxY, 0), inputHeight))
            let pixels = memory.pixels(bandPixels(n))
            let start = Deadline.now()
            kernel.render(from: stores[n]!, into: RegionTarget(rect: rect, origin: pixels + pads[n], stride: strides[n]))
            finish(n, pixels, rows: rect.height)
            account(n, since: start)
            return pixels
        }
    }

    private func account(_ n: Int, since start: UInt64) {
        let spent = Deadline.now() - start
        condition.lock()
        nanoseconds[n] += spent
        condition.unlock()
    }

    /// Applies the node's fused colour program, then fills the padding columns.
    private func finish(_ n: Int, _ pixels: UnsafeMutablePointer<Pixel>, rows: Int) {
        let width = pipeline.nodes[n].size.width, pad = pads[n], stride = strides[n]
        let color = pipeline.nodes[n].color
        for r in 0..<rows {
            let row = pixels + r * stride
            if let color, !color.isEmpty { color.apply(row + pad, count: width) }
            guard pad > 0, width > 0 else { continue }
            let clamp = padEdges[n] == .clamp
            row.update(repeating: clamp ? row[pad] : .zero, count: pad)
            (row + pad + width).update(repeating: clamp ? row[pad + width - 1] : .zero, count: pad)
        }
    }

    /// Fills node `n`'s compact copy of its input down to row `rows`, band by band, in order.
    private func fill(_ n: Int, from input: Int, through rows: Int) throws {
        let store = stores[n]!
        let inputSize = pipeline.nodes[input].size
        let direct = directStore == n
        condition.lock()
        while true {
            if let failure { condition.unlock(); throw failure }
            if storeFilled[n] >= rows { condition.unlock(); return }
            if storeBusy[n] { condition.wait(); continue }
            storeBusy[n] = true
            let band = storeFilled[n] / bandHeight
            condition.unlock()
            let rect = Self.bandRect(inputSize, band, bandHeight)
            do {
                if direct {
                    try checkDeadline()
                    let start = Deadline.now()
                    let rowBytes = inputSize.width * 3
                    try (source as! any CompactRowSource).readRGB8Rows(
                        count: rect.height, into: (store.storage + rect.y * rowBytes).assumingMemoryBound(to: UInt8.self),
                        rowBytes: rowBytes)
                    account(0, since: start)
                } else {
                    let pixels = try acquire(input, band)
                    for r in 0..<rect.height {
                        store.store(row: rect.y + r, from: pixels + r * strides[input] + pads[input], count: inputSize.width)
                    }
                    release(input, band)
                }
            } catch {
                condition.lock()
                storeBusy[n] = false
                condition.unlock()
                fail(error)
                throw error
            }
            condition.lock()
            storeFilled[n] = rect.maxY
            storeBusy[n] = false
            condition.broadcast()
        }
    }

    // MARK: Views

    /// Bands held for one kernel call, and the row pointers (and any copied rows) of its view.
    struct Lease {
        let node: Int
        let bands: ClosedRange<Int>?
        let rows: UnsafeMutablePointer<UnsafePointer<Pixel>>
        let scratch: UnsafeMutablePointer<Pixel>?
        let scratchCount: Int
        var view: RegionView { RegionView(rect: rect, rows: rows) }
        let rect: Rect
    }

    /// A view of `rect` of node `n`'s output, reads outside it answered by `edge`.
    func lease(_ n: Int, _ rect: Rect, _ edge: EdgeMode) throws -> Lease {
        let size = pipeline.nodes[n].size
        let range = Self.touched(size, rect, edge, bandHeight)
        var bases = [UnsafeMutablePointer<Pixel>]()
        if let range {
            do {
                for k in range { bases.append(try acquire(n, k)) }
            } catch {
                for k in range.lowerBound..<(range.lowerBound + bases.count) { release(n, k) }
                throw error
            }
        }
        let pad = pads[n], stride = strides[n], h = bandHeight
        let height = max(rect.height, 1)
        let rows = UnsafeMutablePointer<UnsafePointer<Pixel>>.allocate(capacity: height)
        func source(_ y: Int) -> UnsafeMutablePointer<Pixel>? {
            guard let range else { return nil }
            guard let yy = edge.index(y, extent: size.height) else { return nil }
            let k = yy / h
            return bases[k - range.lowerBound] + ((yy - k * h) * stride + pad)
        }
        let inside = rect.x >= 0 && rect.maxX <= size.width
        let inPad = rect.x >= -pad && rect.maxX <= size.width + pad && edge == padEdges[n]
        var scratch: UnsafeMutablePointer<Pixel>?
        var scratchCount = 0
        if inside || inPad {
            // Rows point into the bands; rows past a transparent edge share one zero row.
            var zero: UnsafePointer<Pixel>?
            for i in 0..<rect.height {
                if let row = source(rect.y + i) {
                    rows[i] = UnsafePointer(row + rect.x)
                } else {
                    if zero == nil {
                        scratchCount = rect.width
                        let z = memory.pixels(scratchCount)
                        z.initialize(repeating: .zero, count: max(scratchCount, 1))
                        scratch = z
                        zero = UnsafePointer(z)
                    }
                    rows[i] = zero!
                }
            }
        } else {
            // Far past the padding: copy the rows, with their edges extended as `edge` says.
            scratchCount = rect.width * rect.height
            let copy = memory.pixels(scratchCount)
            scratch = copy
            let lastX = size.width - 1
            for i in 0..<rect.height {
                let out = copy + i * rect.width
                rows[i] = UnsafePointer(out)
                guard let row = source(rect.y + i) else {
                    out.initialize(repeating: .zero, count: rect.width)
                    continue
                }
                for x in 0..<rect.width {
                    let xx = rect.x + x
                    if xx >= 0 && xx <= lastX {
                        (out + x).initialize(to: row[xx])
                    } else if let mapped = edge.index(xx, extent: size.width) {
                        (out + x).initialize(to: row[mapped])
                    } else {
                        (out + x).initialize(to: .zero)
                    }
                }
            }
        }
        return Lease(node: n, bands: range, rows: rows, scratch: scratch, scratchCount: scratchCount, rect: rect)
    }

    func end(_ lease: Lease) {
        lease.rows.deallocate()
        if let scratch = lease.scratch { memory.release(scratch, count: lease.scratchCount, reusable: false) }
        if let bands = lease.bands { for k in bands { release(lease.node, k) } }
    }

    // MARK: Report

    func nodeTimes() -> [RenderStats.NodeTime] {
        condition.lock()
        defer { condition.unlock() }
        return pipeline.nodes.enumerated().map { n, node in
            RenderStats.NodeTime(names: node.names, seconds: Double(nanoseconds[n]) / 1e9, size: node.size)
        }
    }
}
