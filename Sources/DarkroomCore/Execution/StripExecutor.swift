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
    /// lets a slow strip finish while its successors wait for their turn.
    public var readAhead: Int
    /// Source bands one thread decodes ahead of demand (when there are two threads or more),
    /// so the sequential decoder keeps a core busy while the others filter and encode.
    public var decodeAhead: Int

    public init(bandHeight: Int = 16, concurrency: Int = StripExecutor.defaultConcurrency, readAhead: Int = 2,
                decodeAhead: Int = 4) {
        precondition(bandHeight > 0 && concurrency > 0 && readAhead >= 0 && decodeAhead >= 0)
        self.bandHeight = bandHeight
        self.concurrency = concurrency
        self.readAhead = readAhead
        self.decodeAhead = decodeAhead
    }

    public static var defaultConcurrency: Int { max(1, ProcessInfoCores.count) }
}
