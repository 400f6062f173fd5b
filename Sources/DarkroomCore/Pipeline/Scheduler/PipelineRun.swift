import Foundation

/// One render of a ``Pipeline``: the bands each node has computed, shared by the threads that
/// render output strips.
///
/// A node's output is cut into bands of `bandHeight` full-width rows. A band is computed once,
/// by the first thread that needs it (others wait for it), kept while later requests still need
/// it, and freed after its last use: the number of uses of every band is counted before the
/// render starts, from the regions each consumer band declares (``BandPlan``, which the memory
/// estimate reads too). This is the line cache of libvips and Halide's
/// `store_root().compute_at()`: rows that neighbouring strips share are computed once, and
/// memory follows the width of the image, not its height.
///
/// By concern: the band cache (`PipelineRun+Bands`), the decoder driver (`+Decoder`), compact
/// stores for random-access nodes (`+Stores`), views for kernel calls (`+Leases`); the strip
/// scheduler is ``Pipeline/run(from:into:executor:deadline:slots:)``.
///
/// Thread safety: all mutable state is guarded by `condition`, and every shared part (a band, the
/// decoder, a compact copy) is produced through ``claimWorkPublish(claim:work:publish:)``; band
/// pixels are written by the one thread computing the band, before it is published under the
/// lock, and only read after.
final class PipelineRun: @unchecked Sendable {
    enum BandState {
        case pending
        case computing
        case ready(UnsafeMutablePointer<Pixel>)
        case released
    }

    let pipeline: Pipeline
    let memory = PixelMemory()
    let condition = NSCondition()
    let source: any RowSource
    let deadline: Deadline?
    let bandHeight: Int
    /// Per node: columns of padding each side of a band row, filled per `padEdges`, so that
    /// consumers reading past the left or right edge need no copy.
    let pads: [Int]
    let padEdges: [EdgeMode]
    let strides: [Int]
    /// Band bytes, shared with the memory estimate.
    let sizes: BandSizes
    let stores: [CompactImage?]
    /// The random-access node whose compact copy takes the decoder's 8-bit RGB rows directly
    /// (``Pipeline/rgb8Reader``); the decoder then reads ahead for nobody else.
    let directStore: Int?
    /// The kernel node that reads the source's bands as 8-bit RGB (``Pipeline/rgb8Reader``):
    /// the source's bands then hold `width × 3` bytes a row.
    let rgb8Reader: Int?
    /// The output node when it writes 8-bit RGB bands for the sink (``Pipeline/rgb8Writer``).
    let rgb8Writer: Int?
    /// Threads that may render this run's strips: a band is cut into pieces for them.
    let threads: Int

    // Guarded by `condition`.
    var states: [[BandState]]
    var uses: [[Int]]
    var nanoseconds: [UInt64]
    /// When the decoder ran (node 0's work), for the decode/encode shares of wall time.
    var decoding = WallSpans()
    var sourceBusy = false
    var nextSourceBand = 0
    /// Source bands below this are all freed (the decoder's read-ahead is measured from it).
    var sourceFreedPrefix = 0
    var storeFilled: [Int]
    var storeBusy: [Bool]
    /// Kernel calls whose column pieces other threads may take (``renderPieces(_:_:)``).
    var offered = [Pieces]()
    /// The first error any thread met; every thread stops at its next step.
    private(set) var failure: (any Error)?

    /// - Parameters:
    ///   - rgb8Sink: whether the sink takes 8-bit RGB rows (``StripQuantiser/takesRGB8Rows``).
    ///   - threads: threads that may render this run's strips (band pieces are cut for them).
    init(_ pipeline: Pipeline, source: any RowSource, deadline: Deadline?, rgb8Sink: Bool = false, threads: Int = 1) {
        self.pipeline = pipeline
        self.threads = threads
        self.source = source
        self.deadline = deadline
        bandHeight = pipeline.bandHeight
        let nodes = pipeline.nodes
        let plan = BandPlan(nodes, bandHeight: pipeline.bandHeight)
        var stores = [CompactImage?](repeating: nil, count: nodes.count)
        for (c, node) in nodes.enumerated() {
            if case .randomAccess(_, let input, let layout) = node.producer {
                stores[c] = CompactImage(size: nodes[input].size, layout: layout)
            }
        }
        let uses = plan.uses
        pads = plan.pads
        padEdges = plan.padEdges
        // Only a decoder that hands out its 8-bit RGB rows can feed them to that node.
        sizes = BandSizes(pipeline, plan: plan,
                          compactSource: source is any CompactRowSource && source.isOpaque && source.isEightBit,
                          rgb8Sink: rgb8Sink)
        strides = sizes.strides
        (directStore, rgb8Reader, rgb8Writer) = (sizes.directStore, sizes.rgb8Reader, sizes.rgb8Writer)
        self.uses = uses
        self.stores = stores
        for store in stores { if let store { memory.allocated(store.size.area * store.pixelBytes) } }
        memory.allocated(pipeline.kernelHeldBytes)
        states = uses.map { [BandState](repeating: .pending, count: $0.count) }
        nanoseconds = [UInt64](repeating: 0, count: nodes.count)
        storeFilled = [Int](repeating: 0, count: nodes.count)
        storeBusy = [Bool](repeating: false, count: nodes.count)
    }

    deinit {
        for (n, bands) in states.enumerated() {
            for case .ready(let p) in bands { memory.release(p, count: bandPixels(n)) }
        }
        for store in stores { if let store { memory.freed(store.size.area * store.pixelBytes) } }
        memory.freed(pipeline.kernelHeldBytes)
    }

    var bandCountOfOutput: Int { states[states.count - 1].count }

    func bandPixels(_ n: Int) -> Int { sizes.bandPixels(n) }

    var rgb8RowBytes: Int { sizes.rgb8RowBytes }

    /// The one hand-off every shared part of a render goes through (a band of a node, the
    /// decoder, a compact copy): called with the lock held, it claims the part (so other threads
    /// wait for it instead of doing it too), does `work` outside the lock, then publishes under
    /// the lock — the result, or nil after an error, which becomes the run's failure — and wakes
    /// every waiter. Returns with the lock held; callers loop on their own state.
    @discardableResult
    func claimWorkPublish<T>(claim: () -> Void, work: () throws -> T, publish: (T?) -> Void) -> T? {
        claim()
        condition.unlock()
        var result: T?, error: (any Error)?
        do { result = try work() } catch let e { error = e }
        condition.lock()
        publish(result)
        if let error, failure == nil { failure = error }
        condition.broadcast()
        return result
    }

    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// Asked before every band (and strip): a cancelled or late render stops within one band's
    /// work, whatever its filters.
    func checkDeadline() throws {
        guard let deadline else { return }
        if deadline.isCancelled { throw PipelineError.cancelled }
        if deadline.hasPassed { throw PipelineError.timedOut }
    }

    func account(_ n: Int, since start: UInt64) {
        let end = Deadline.now()
        condition.lock()
        nanoseconds[n] += end - start
        if n == 0 { decoding.record(from: start, to: end) }
        condition.unlock()
    }

    /// Adds `took` to kernel node `n`'s time (pieces rendered by several threads).
    func account(_ n: Int, nanoseconds took: UInt64) {
        condition.lock()
        nanoseconds[n] += took
        condition.unlock()
    }

    // MARK: Report

    func decodeSpans() -> WallSpans {
        condition.lock()
        defer { condition.unlock() }
        return decoding
    }

    func nodeTimes() -> [RenderStats.NodeTime] {
        condition.lock()
        defer { condition.unlock() }
        return pipeline.nodes.enumerated().map { n, node in
            RenderStats.NodeTime(names: node.names, seconds: Double(nanoseconds[n]) / 1e9, size: node.size)
        }
    }
}
