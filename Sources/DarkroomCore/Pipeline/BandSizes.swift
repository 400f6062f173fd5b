/// What one band of each node takes, for a given source: the row stride (padding included)
/// and, when the decoder hands out its 8-bit RGB rows, which node takes them (the source's bands
/// then hold 3 bytes a pixel, or none at all when a compact copy is filled directly). Shared by
/// the run, which allocates the bands, and the memory estimate, which counts them.
struct BandSizes {
    let bandHeight: Int
    /// Per node: pixels from one band row to the next.
    let strides: [Int]
    /// The random-access node whose compact copy takes the decoder's 8-bit RGB rows directly.
    let directStore: Int?
    /// The kernel node that reads the source's bands as 8-bit RGB.
    let rgb8Reader: Int?
    private let sourceWidth: Int

    /// - Parameter compactSource: whether the source hands out 8-bit RGB rows (a
    ///   ``CompactRowSource`` that is opaque and 8-bit; the codecs' decoders are compact).
    init(_ pipeline: Pipeline, plan: BandPlan, compactSource: Bool) {
        let nodes = pipeline.nodes
        bandHeight = pipeline.bandHeight
        strides = zip(nodes, plan.pads).map { $0.size.width + 2 * $1 }
        sourceWidth = nodes.first?.size.width ?? 0
        let bytesReader = compactSource ? pipeline.rgb8Reader : nil
        switch bytesReader.map({ nodes[$0].producer }) {
        case .randomAccess?: (directStore, rgb8Reader) = (bytesReader, nil)
        // An 8-bit reader answers its reads past the edges itself: the source's rows need no padding.
        case .kernel?: (directStore, rgb8Reader) = (nil, bytesReader)
        default: (directStore, rgb8Reader) = (nil, nil)
        }
    }

    /// Bytes of one 8-bit RGB source row.
    var rgb8RowBytes: Int { sourceWidth * 3 }

    /// The pixels (16-byte units) one band of node `n` takes.
    func bandPixels(_ n: Int) -> Int {
        guard n == 0, rgb8Reader != nil else { return bandHeight * strides[n] }
        // Bytes, in whole pixels, with the 2 bytes past the last row the 8-bit kernels may read.
        return (bandHeight * rgb8RowBytes + 2 + MemoryLayout<Pixel>.stride - 1) / MemoryLayout<Pixel>.stride
    }
}
