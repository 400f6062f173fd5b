/// What one render cost. Nodes run overlapped on several threads, so a node's `seconds` is the
/// time threads spent in its own work (CPU time, summed over threads), not a span of wall time.
public struct RenderStats: Sendable, Equatable {
    /// One node of the graph and the CPU time its threads spent in it.
    public struct NodeTime: Sendable, Equatable {
        /// The filters the node computes ("decode" for the source, with a folded `crop`).
        public var names: [String]
        public var seconds: Double
        public var size: Size
    }

    public var nodes: [NodeTime]
    /// The most pixel memory (bands, scratch, compact images) held at once.
    public var peakPixelBytes: Int
    /// The decoder's share of the render's wall time, and the encoder's (the sink's `write`).
    /// They run on different threads, often at once: seconds in which both ran count half to
    /// each, so `decodeSeconds + encodeSeconds` never exceeds `seconds`. (A node's own CPU
    /// time, the decoder's included, is in `nodes`.)
    public var decodeSeconds: Double
    public var encodeSeconds: Double
    /// Wall time of the whole render.
    var seconds: Double
}

extension RenderStats {
    /// Two renders of the same pipeline one after the other (the frames of an animation): times
    /// summed node by node, the peak the larger of the two.
    package func adding(_ other: RenderStats) -> RenderStats {
        var sum = self
        for i in sum.nodes.indices where i < other.nodes.count { sum.nodes[i].seconds += other.nodes[i].seconds }
        sum.peakPixelBytes = max(peakPixelBytes, other.peakPixelBytes)
        sum.decodeSeconds += other.decodeSeconds
        sum.encodeSeconds += other.encodeSeconds
        sum.seconds += other.seconds
        return sum
    }
}

extension RenderStats {
    /// A render that ran no pipeline: the file recoded whole by its encoder (a JPEG transcoded
    /// into JPEG XL), all of its wall time the encoder's.
    package static func encodedWhole(seconds: Double) -> RenderStats {
        RenderStats(nodes: [], peakPixelBytes: 0, decodeSeconds: 0, encodeSeconds: seconds, seconds: seconds)
    }
}
