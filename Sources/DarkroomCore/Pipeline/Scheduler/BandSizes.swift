/// What one band of each node takes, for a given source: the row stride (padding included)
/// and, when the decoder hands out its 8-bit RGB rows, which node takes them (the source's bands
/// then hold 3 bytes a pixel, or none at all when a compact copy is filled directly). Shared by
/// the run, which allocates the bands, and the memory estimate, which counts them. When the
/// sink takes 8-bit RGB rows too, the output node's bands hold 3 bytes a pixel as well
/// (``Pipeline/rgb8Writer``).
struct BandSizes {
    let bandHeight: Int
    /// Per node: pixels from one band row to the next.
    let strides: [Int]
    /// The random-access node whose compact copy takes the decoder's 8-bit RGB rows directly.
    let directStore: Int?
    /// The kernel node that reads the source's bands as 8-bit RGB.
    let rgb8Reader: Int?
    /// The output node that writes 8-bit RGB bands for the sink.
    let rgb8Writer: Int?
    private let sourceWidth: Int
    private let outputWidth: Int

    /// - Parameter compactSource: whether the source hands out 8-bit RGB rows (a
    ///   ``CompactRowSource`` that is opaque and 8-bit; the codecs' decoders are compact).
    /// - Parameter rgb8Sink: whether the sink takes 8-bit RGB rows (``StripQuantiser/takesRGB8Rows``).
    init(_ pipeline: Pipeline, plan: BandPlan, compactSource: Bool, rgb8Sink: Bool = false) {
        let nodes = pipeline.nodes
        bandHeight = pipeline.bandHeight
        strides = zip(nodes, plan.pads).map { $0.size.width + 2 * $1 }
        sourceWidth = nodes.first?.size.width ?? 0
        outputWidth = nodes.last?.size.width ?? 0
        let bytesReader = compactSource ? pipeline.rgb8Reader : nil
        switch bytesReader.map({ nodes[$0].producer }) {
        case .randomAccess?: (directStore, rgb8Reader) = (bytesReader, nil)
        // An 8-bit reader answers its reads past the edges itself: the source's rows need no padding.
        case .kernel?: (directStore, rgb8Reader) = (nil, bytesReader)
        // The source is the output: its bands hold 8-bit rows only for a sink that takes them.
        case .source?: (directStore, rgb8Reader) = (nil, rgb8Sink ? bytesReader : nil)
        default: (directStore, rgb8Reader) = (nil, nil)
        }
        rgb8Writer = rgb8Sink && rgb8Reader != nil && pipeline.rgb8Writer == rgb8Reader ? rgb8Reader : nil
    }

    /// Bytes of one 8-bit RGB source row.
    var rgb8RowBytes: Int { sourceWidth * 3 }

    /// Bytes of one 8-bit RGB output row (``rgb8Writer``).
    var rgb8OutputRowBytes: Int { outputWidth * 3 }

    /// The pixels (16-byte units) one band of node `n` takes.
    func bandPixels(_ n: Int) -> Int {
        let bytes: Int? = n == 0 && rgb8Reader != nil ? rgb8RowBytes : n == rgb8Writer ? rgb8OutputRowBytes : nil
        guard let rowBytes = bytes else { return bandHeight * strides[n] }
        // Bytes, in whole pixels, with the 2 bytes past the last row the 8-bit kernels may read.
        return (bandHeight * rowBytes + 2 + MemoryLayout<Pixel>.stride - 1) / MemoryLayout<Pixel>.stride
    }
}
