/// How a pipeline is scheduled: the height of its bands (output strips are bands of the last
/// node) and how many threads may render one job's strips at once.
///
/// Threads are further limited by ``ComputeSlots``, shared by every job in the process, so
/// several jobs together never run more rendering threads than there are cores.
public struct StripExecutor: Sendable {
    /// Rows per band.
    public var bandHeight: Int
    /// Most threads rendering this job's strips (1 renders on the calling thread only).
    public var concurrency: Int
    /// Strips rendered ahead of the encoder, beyond one per thread: the reorder buffer that
    /// lets a slow strip finish while its successors wait for their turn. None by default:
    /// every strip ahead widens the rows each node must hold (and the memory estimate, which
    /// must assume them spread out), while the threads already stay busy on one strip each.
    var readAhead: Int
    /// Source bands one thread decodes ahead of demand (when there are two threads or more),
    /// so the sequential decoder keeps a core busy while the others filter and encode.
    var decodeAhead: Int
    /// Strips rendered at once. A thread that may not start another helps with the strips in
    /// play instead: it takes column pieces of the bands being computed (and the first helper
    /// keeps the decoder ahead). Every strip in play holds the bands it needs, so with one the
    /// memory a render holds is the same whatever the load (with one strip per thread, it
    /// depends on whether the threads run together or take turns on a busy core, and the
    /// estimate has to cover the larger); with one per thread, the threads
    /// need not hand pieces to each other. nil (the default): ``Pipeline/preferredStripsInPlay``
    /// chooses per pipeline.
    var stripsInPlay: Int?

    public init(bandHeight: Int = 16, concurrency: Int = StripExecutor.defaultConcurrency, readAhead: Int = 0,
                decodeAhead: Int = 4, stripsInPlay: Int? = nil) {
        precondition(bandHeight > 0 && concurrency > 0 && readAhead >= 0 && decodeAhead >= 0 && (stripsInPlay ?? 1) > 0)
        self.bandHeight = bandHeight
        self.concurrency = concurrency
        self.readAhead = readAhead
        self.decodeAhead = decodeAhead
        self.stripsInPlay = stripsInPlay
    }

    /// Strips that can be rendering at once for `pipeline`: no more than there are threads.
    func rendersAtOnce(for pipeline: Pipeline) -> Int {
        min(stripsInPlay ?? pipeline.preferredStripsInPlay, concurrency)
    }

    public static var defaultConcurrency: Int { max(1, ProcessInfoCores.count) }
}
