/// A chain compiled for one source size: a graph of nodes whose sizes are fixed before any
/// pixel is computed, rendered on demand in strips (see ``PipelineRun``).
///
/// Node 0 is the source (the decoder, with a leading `crop` folded in as crop-on-load); each
/// region filter adds the kernels of its ``KernelPlan``; point filters are fused into the node
/// before them as a ``PointProgram``. The last node is the output.
public struct Pipeline: Sendable {
    /// What the decoder delivers, known from the file's header.
    public struct SourceTraits: Sendable, Hashable {
        /// The decoded size (after shrink-on-load, before crop-on-load).
        public var size: Size
        public var isOpaque: Bool
        public var isEightBit: Bool
        /// How the decoded image is turned upright before the chain (whose sizes, crops and
        /// percentages all refer to the upright image).
        public var orientation: Orientation
        /// Every pixel has R = G = B (a grey or grey+alpha file, decoded as RGB).
        public var isGrey: Bool

        public init(size: Size, isOpaque: Bool, isEightBit: Bool, orientation: Orientation = .up, isGrey: Bool = false) {
            self.size = size
            self.isOpaque = isOpaque
            self.isEightBit = isEightBit
            self.orientation = orientation
            self.isGrey = isGrey
        }
    }

    struct Node: Sendable {
        enum Producer: Sendable {
            case source
            case kernel(any PixelKernel, inputs: [Int])
            case randomAccess(any RandomAccessKernel, input: Int, layout: CompactImage.Layout)
        }
        var producer: Producer
        var size: Size
        var color: PointProgram?
        /// The filters this node computes, for reports.
        var names: [String]
    }

    let nodes: [Node]
    /// See ``rgb8Reader(_:_:)``: when the decoder can hand out its 8-bit RGB rows, the render
    /// gives them to this node as they are.
    let rgb8Reader: Int?
    /// See ``rgb8Writer(_:_:)``: the node that can also write 8-bit RGB output, for a sink that
    /// takes it (decided per run, with the sink).
    let rgb8Writer: Int?
    /// The part of the decoded image the source delivers (crop-on-load), or nil for all of it.
    public let sourceCrop: Rect?
    package let traits: SourceTraits
    /// Rows per band; output strips are bands of the last node.
    let bandHeight: Int

    public var outputSize: Size { nodes[nodes.count - 1].size }
    /// The size the source must deliver.
    public var sourceSize: Size { nodes[0].size }

    /// Strips to render at once when the executor leaves it open (``StripExecutor/stripsInPlay``):
    /// one when the output has at most a quarter of the source's pixels, two otherwise. A
    /// render that shrinks that much (a thumbnail) waits on the one sequential decoder, so a
    /// second strip would gain no time and only hold its bands, by an amount that follows the
    /// load (with one, its peak is the same on one core and two); a render whose filters work
    /// on as many pixels as it decodes keeps its threads on strips of their own, since handing
    /// column pieces to each other costs them time.
    var preferredStripsInPlay: Int {
        outputSize.area * 4 <= sourceSize.area ? 1 : 2
    }

    /// The kernels the nodes run, with the filters each node computes.
    private var kernels: [(kernel: any PixelKernel, names: [String])] {
        nodes.compactMap { node in
            switch node.producer {
            case .source: nil
            case .kernel(let kernel, _): (kernel, node.names)
            case .randomAccess(let kernel, _, _): (kernel, node.names)
            }
        }
    }

    /// Bytes the kernels hold for the whole render beside the bands (drawn rasters).
    var kernelHeldBytes: Int { kernels.reduce(0) { $0 + $1.kernel.heldBytes } }

    /// Why some kernel cannot render (``PixelKernel/failure``), naming its filters, or nil.
    var kernelFailure: String? {
        kernels.lazy.compactMap { k in k.kernel.failure.map { "\(k.names.joined(separator: ", ")): \($0)" } }.first
    }

    /// Every node's size and the filters it computes, in order (the source first).
    package var nodeSizes: [(names: [String], size: Size)] { nodes.map { ($0.names, $0.size) } }

    /// Whether the output can have transparent pixels (PNG then keeps an alpha channel).
    public var outputMayHaveAlpha: Bool {
        !outputHas(source: traits.isOpaque, kernel: { $0.isOpaque(givenOpaqueInputs: $1) }, color: \.preservesOpacity)
    }

    /// Whether every output pixel has R = G = B: the source is grey and every node keeps it so
    /// (encoders then write one colour channel; a sepia or a coloured background widens it).
    public var outputIsGrey: Bool {
        outputHas(source: traits.isGrey, kernel: { k, inputs in k.preservesGrey && inputs.allSatisfy { $0 } },
                  color: \.preservesGrey)
    }

    /// Follows a property of the pixels from the source through every node to the output.
    private func outputHas(source: Bool, kernel: (any PixelKernel, [Bool]) -> Bool,
                           color: (PointProgram) -> Bool) -> Bool {
        var has = [Bool]()
        for node in nodes {
            var holds: Bool
            switch node.producer {
            case .source: holds = source
            case .kernel(let k, let inputs): holds = kernel(k, inputs.map { has[$0] })
            case .randomAccess(let k, let input, _): holds = kernel(k, [has[input]])
            }
            if let program = node.color, !color(program) { holds = false }
            has.append(holds)
        }
        return has.last ?? source
    }

    /// - Parameters:
    ///   - cropOnLoad: whether the source can deliver a part of the image (a leading `crop` then
    ///     costs nothing: JPEG skips those rows and columns without decoding them).
    ///   - bandHeight: rows per band; smaller bands hold less memory, larger ones cost less
    ///     bookkeeping. 32 rows of a 5000-pixel-wide image are 2.5 MB of float. Widened where a
    ///     kernel reads far above or below its output (``BandPlan/bandHeight(for:requested:)``).
    public init(chain: CompiledChain, source: SourceTraits, cropOnLoad: Bool = true, bandHeight: Int = 32) {
        precondition(bandHeight > 0)
        self.traits = source
        var stages = chain.stages[...]
        var crop: Rect?
        var sourceNames = ["decode"]
        let orientation = source.orientation
        let readsSource = chain.readsChainSource
        if cropOnLoad, !readsSource, case .region(let name, let filter as CropFilter)? = stages.first, source.size.area > 0 {
            // The crop is given on the upright image; the decoder crops the stored one.
            let upright = orientation.uprightSize(source.size)
            crop = orientation.storedRect(filter.rect(in: upright), stored: source.size)
            sourceNames.append(name)
            stages = stages.dropFirst()
        }
        sourceCrop = crop
        var nodes = [Node(producer: .source, size: crop?.size ?? source.size, names: sourceNames)]
        if orientation != .up {
            nodes.append(Self.node(for: OrientationKernel(orientation: orientation, inputSize: nodes[0].size), inputs: [0],
                                   label: "auto_orient", nodes: nodes, bandHeight: bandHeight, source: source))
        }
        // The chain's source, as filters that read it see it: upright, before any filter.
        let chainSource = nodes.count - 1
        for stage in stages {
            switch stage {
            case .point(let names, let program):
                if readsSource, nodes.count - 1 == chainSource {
                    // Colour fused into the source node would change the source the filters read.
                    let size = nodes[chainSource].size
                    nodes.append(Node(producer: .kernel(CopyKernel(inputSize: size, outputSize: size, origin: (0, 0)), inputs: [chainSource]),
                                      size: size, names: []))
                }
                let last = nodes.count - 1
                nodes[last].color = PointProgram((nodes[last].color?.operations ?? []) + program.operations)
                nodes[last].names += names
            case .analysis(let name, _):
                preconditionFailure("\(name) waits for a statistic: resolve the chain's analyses before building its pipeline")
            case .region(let name, let filter):
                let input = nodes.count - 1
                let plan = filter.readsChainSource ? filter.plan(for: nodes[input].size, chainSource: nodes[chainSource].size)
                    : filter.plan(for: nodes[input].size)
                let first = nodes.count
                for step in plan.steps {
                    let inputs = step.sources.map { source -> Int in
                        switch source {
                        case .input: input
                        case .step(let i): first + i
                        case .chainSource: chainSource
                        }
                    }
                    let label = step.label.map { "\(name) (\($0))" } ?? name
                    nodes.append(Self.node(for: step.kernel, inputs: inputs, label: label,
                                           nodes: nodes, bandHeight: bandHeight, source: source))
                }
            }
        }
        // Point filters alone on an opaque 8-bit source, channel by channel: three tables read the
        // decoder's 8-bit rows (ChannelTableKernel) instead of a float decode and a fused pass.
        if nodes.count == 1, let program = nodes[0].color, source.isOpaque, source.isEightBit, program.isChannelwise {
            let names = Array(nodes[0].names.dropFirst(sourceNames.count))
            nodes[0].color = nil
            nodes[0].names = sourceNames
            nodes.append(Node(producer: .kernel(ChannelTableKernel(size: nodes[0].size, program: program), inputs: [0]),
                              size: nodes[0].size, names: names))
        }
        self.nodes = nodes
        self.bandHeight = BandPlan.bandHeight(for: nodes, requested: bandHeight)
        rgb8Reader = Self.rgb8Reader(nodes, source)
        rgb8Writer = Self.rgb8Writer(nodes, reader: rgb8Reader)
    }

    /// The nodes that read node `n`'s output.
    private static func readers(of n: Int, in nodes: [Node]) -> [Int] {
        nodes.indices.filter { c in
            switch nodes[c].producer {
            case .source: false
            case .kernel(_, let inputs): inputs.contains(n)
            case .randomAccess(_, let input, _): input == n
            }
        }
    }

    /// The node that can take the source's 8-bit RGB rows as decoded, so they never pass
    /// through float: the source is opaque and 8-bit, has no colour program, and feeds only that
    /// node, which keeps a compact 8-bit RGB copy of it (random access) or is an
    /// ``RGB8InputKernel``; or the source itself when it is the output (an empty chain, a
    /// conversion), whose rows then go to a sink that takes 8-bit RGB as they were decoded.
    private static func rgb8Reader(_ nodes: [Node], _ source: SourceTraits) -> Int? {
        guard source.isOpaque, source.isEightBit, nodes[0].color == nil else { return nil }
        if nodes.count == 1 { return 0 }
        let readers = Self.readers(of: 0, in: nodes)
        guard readers.count == 1, let n = readers.first else { return nil }
        switch nodes[n].producer {
        case .randomAccess(_, _, .rgb8): return n
        case .kernel(let kernel as any RGB8InputKernel, let inputs) where inputs == [0] && kernel.acceptsRGB8Input: return n
        default: return nil
        }
    }

    /// The output node, when it is the source's 8-bit reader and can write 8-bit RGB itself
    /// (``RGB8OutputKernel``) with no colour program after it: decoder to encoder in 8 bits.
    private static func rgb8Writer(_ nodes: [Node], reader: Int?) -> Int? {
        if reader == 0 { return 0 }  // the source is the output
        guard let reader, reader == nodes.count - 1, nodes[reader].color == nil,
              case .kernel(let kernel as any RGB8OutputKernel, _) = nodes[reader].producer,
              kernel.writesRGB8Output, kernel.isOpaque(givenOpaqueInputs: [true]) else { return nil }
        return reader
    }

    /// A streaming node, or a random-access one when strips would read too many input rows.
    private static func node(for kernel: any PixelKernel, inputs: [Int], label: String,
                             nodes: [Node], bandHeight: Int, source: SourceTraits) -> Node {
        if let random = kernel as? any RandomAccessKernel,
           random.alwaysKeepsInputWhole || !streams(random, inputSize: nodes[inputs[0]].size, bandHeight: bandHeight) {
            let fromSource = inputs[0] == 0 && nodes[0].color == nil
            let layout: CompactImage.Layout = fromSource && source.isOpaque && source.isEightBit ? .rgb8 : .rgba16
            return Node(producer: .randomAccess(random, input: inputs[0], layout: layout),
                        size: kernel.outputSize, names: [label])
        }
        return Node(producer: .kernel(kernel, inputs: inputs), size: kernel.outputSize, names: [label])
    }

    /// Streaming suits a kernel whose strips read a short run of input rows that moves down
    /// the input as the strips do; otherwise (a rotation by more than a few degrees, a flip)
    /// the input is kept whole, compact.
    static func streams(_ kernel: any PixelKernel, inputSize: Size, bandHeight: Int) -> Bool {
        let size = kernel.outputSize
        var previousTop = Int.min
        var y = 0
        while y < size.height {
            let band = Rect(x: 0, y: y, width: size.width, height: min(bandHeight, size.height - y))
            let region = kernel.inputRegions(for: band)[0].intersection(Rect(size: inputSize))
            if !region.isEmpty {
                if region.height > 4 * bandHeight + 64 || region.y < previousTop { return false }
                previousTop = region.y
            }
            y += bandHeight
        }
        return true
    }
}
