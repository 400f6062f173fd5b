/// A chain ready to run: identity filters dropped, point filters fused. ``Pipeline`` turns it,
/// for a known input size, into the graph of kernels that renders it.
public struct CompiledChain: Sendable {
    /// One stage of the chain, by how it runs.
    public enum Stage: Sendable {
        /// Fused point filters: inlined into the node before them, never a pass of their own.
        case point(names: [String], program: PointProgram)
        case region(name: String, filter: any RegionFilter)
        /// A filter that needs a statistic of its input first; replaced by what it resolves to
        /// before a pipeline is built (``CompiledChain/resolvingAnalyses(source:executor:makeSource:)``).
        case analysis(name: String, filter: any AnalysisFilter)

        /// Filter names covered by the stage.
        public var names: [String] {
            switch self {
            case .point(let names, _): names
            case .region(let name, _), .analysis(let name, _): [name]
            }
        }
    }

    public let stages: [Stage]

    public init(stages: [Stage]) { self.stages = stages }

    /// The size each stage produces for an input of `size`, in order. Lets a caller refuse a
    /// chain that would allocate an absurd image before any pixel is computed.
    /// Analysis stages count as their worst case.
    public func stageSizes(for size: Size) -> [Size] {
        var current = size
        return worstCase.stages.map { stage in
            if case .region(_, let f) = stage { current = f.outputSize(for: current) }
            return current
        }
    }

    /// Whether a stage waits for a statistic of its input.
    public var hasAnalysis: Bool {
        stages.contains { if case .analysis = $0 { true } else { false } }
    }

    /// The chain with every analysis stage as its worst case: what the pixel limit and the
    /// memory estimate are computed on before anything is decoded.
    package var worstCase: CompiledChain {
        guard hasAnalysis else { return self }
        var out = [Stage]()
        for stage in stages {
            if case .analysis(let name, let filter) = stage {
                ChainCompiler.append(filter.worstCase, named: name, to: &out)
            } else {
                out.append(stage)
            }
        }
        return CompiledChain(stages: out)
    }

    /// The chain with every analysis stage replaced by the filter its statistic calls for. Each
    /// statistic is measured by running the chain before the stage, from a fresh source
    /// (`makeSource(crop)`: one more decode of that part), into a ``StatisticsSink``, strips in
    /// parallel and folded in order; what comes after is then planned on what was measured.
    ///
    /// A statistic that allows a preview (``StatisticRequest/preview``), with only point stages
    /// before it, is measured on `makePreview()` instead when it gives one: a reduced decode and
    /// its traits.
    public func resolvingAnalyses(source: Pipeline.SourceTraits, executor: StripExecutor = StripExecutor(),
                                  deadline: Deadline? = nil,
                                  makeSource: (_ crop: Rect?) throws -> any RowSource,
                                  makePreview: () throws -> (source: any RowSource, traits: Pipeline.SourceTraits)? = { nil })
        throws -> CompiledChain {
        var resolved = [Stage]()
        for stage in stages {
            guard case .analysis(let name, let filter) = stage else { resolved.append(stage); continue }
            let request = filter.statisticRequest
            let pointsOnly = resolved.allSatisfy { if case .point = $0 { true } else { false } }
            if request.preview, !request.lineExtremes, pointsOnly, let preview = try makePreview() {
                let prefix = Pipeline(chain: CompiledChain(stages: resolved), source: preview.traits, bandHeight: executor.bandHeight)
                var sink = StatisticsSink(size: prefix.outputSize, request: request)
                _ = try prefix.run(from: preview.source, into: &sink, executor: executor, deadline: deadline)
                var statistics = sink.statistics
                statistics.fullSize = Pipeline(chain: CompiledChain(stages: resolved), source: source, bandHeight: executor.bandHeight).outputSize
                ChainCompiler.append(filter.resolved(with: statistics), named: name, to: &resolved)
                continue
            }
            let prefix = Pipeline(chain: CompiledChain(stages: resolved), source: source, bandHeight: executor.bandHeight)
            var sink = StatisticsSink(size: prefix.outputSize, request: request)
            _ = try prefix.run(from: try makeSource(prefix.sourceCrop), into: &sink, executor: executor, deadline: deadline)
            ChainCompiler.append(filter.resolved(with: sink.statistics), named: name, to: &resolved)
        }
        return CompiledChain(stages: resolved)
    }

    /// Whether a filter reads the chain's source (``KernelPlan/Source/chainSource``): the source
    /// is then decoded whole, at full size.
    package var readsChainSource: Bool {
        stages.contains { if case .region(_, let filter) = $0 { filter.readsChainSource } else { false } }
    }

    /// The output size for an input of `size`.
    public func outputSize(for size: Size) -> Size {
        stageSizes(for: size).last ?? size
    }

    /// How much a loader may shrink a source of `source` before this chain (1, 2, 4 or 8): its
    /// first stage decides, when it is ``SourceShrinkable`` (a resize, or a smart cover resize
    /// still to be measured).
    package func sourceShrinkFactor(for source: Size) -> Int { shrinkOnLoadFactor(forReduction: sourceReduction(for: source)) }

    /// By how much the chain's first stage reduces a source of `source` (1 when it does not
    /// shrink, or is not ``SourceShrinkable``): a loader with other shrink steps than JPEG's
    /// (camera RAW's half-size decode) chooses from it.
    package func sourceReduction(for source: Size) -> Double {
        guard !readsChainSource, let first = shrinkableFirst else { return 1 }
        return first.sourceReduction(for: source)
    }

    /// The size a loader that draws its source (PDF, SVG) renders a source of `source` at before
    /// this chain: its first stage's picture when that is ``SourceShrinkable``, else `source`.
    package func sourceRenderSize(for source: Size) -> Size {
        guard !readsChainSource, let first = shrinkableFirst, source.area > 0 else { return source }
        return first.sourceRenderSize(for: source)
    }

    /// The chain for a source decoded at `shrunk` instead of `original`, with the same output.
    package func forShrunkSource(original: Size, shrunk: Size) -> CompiledChain {
        guard original != shrunk, shrinkableFirst != nil else { return self }
        let first: Stage = switch stages[0] {
        case .region(let name, let filter as any SourceShrinkable):
            .region(name: name, filter: filter.forShrunkSource(original: original, shrunk: shrunk))
        case .analysis(let name, let filter as any AnalysisFilter & SourceShrinkable):
            .analysis(name: name, filter: filter.forShrunkSource(original: original, shrunk: shrunk))
        default: stages[0]
        }
        return CompiledChain(stages: [first] + stages.dropFirst())
    }

    private var shrinkableFirst: (any SourceShrinkable)? {
        switch stages.first {
        case .region(_, let filter as any SourceShrinkable)?: filter
        case .analysis(_, let filter as any SourceShrinkable)?: filter
        default: nil
        }
    }
}
