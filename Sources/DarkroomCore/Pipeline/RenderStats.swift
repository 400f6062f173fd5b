/// What one render cost. Nodes run overlapped on several threads, so a node's `seconds` is the
/// time threads spent in its own work (CPU time, summed over threads), not a span of wall time.
public struct RenderStats: Sendable, Equatable {
    public struct NodeTime: Sendable, Equatable {
        /// The filters the node computes ("decode" for the source, with a folded `crop`).
        public var names: [String]
        public var seconds: Double
        public var size: Size
    }

    public var nodes: [NodeTime]
    /// The most pixel memory (bands, scratch, compact images) held at once.
    public var peakPixelBytes: Int
    /// Time spent in the sink's `write` (the encoder), on the thread that writes.
    public var encodeSeconds: Double
    /// Wall time of the whole render.
    public var seconds: Double

    /// Time the source node spent decoding.
    public var decodeSeconds: Double { nodes.first?.seconds ?? 0 }
}
