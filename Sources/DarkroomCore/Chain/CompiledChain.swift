/// A chain ready to run: identity filters dropped, point filters fused. ``Pipeline`` turns it,
/// for a known input size, into the graph of kernels that renders it.
public struct CompiledChain: Sendable {
    public enum Stage: Sendable {
        /// Fused point filters: inlined into the node before them, never a pass of their own.
        case point(names: [String], program: PointProgram)
        case region(name: String, filter: any RegionFilter)

        /// Filter names covered by the stage.
        public var names: [String] {
            switch self {
            case .point(let names, _): names
            case .region(let name, _): [name]
            }
        }
    }

    public let stages: [Stage]

    public init(stages: [Stage]) { self.stages = stages }

    /// The size each stage produces for an input of `size`, in order. Lets a caller refuse a
    /// chain that would allocate an absurd image before any pixel is computed.
    public func stageSizes(for size: Size) -> [Size] {
        var current = size
        return stages.map { stage in
            if case .region(_, let f) = stage { current = f.outputSize(for: current) }
            return current
        }
    }

    /// The output size for an input of `size`.
    public func outputSize(for size: Size) -> Size {
        stageSizes(for: size).last ?? size
    }

    /// How much a loader may shrink a source of `source` before this chain (1, 2, 4 or 8): its
    /// first stage decides, when it is ``SourceShrinkable``.
    public func sourceShrinkFactor(for source: Size) -> Int {
        guard case .region(_, let first as any SourceShrinkable)? = stages.first else { return 1 }
        return first.sourceShrinkFactor(for: source)
    }

    /// The chain for a source decoded at `shrunk` instead of `original`, with the same output.
    public func forShrunkSource(original: Size, shrunk: Size) -> CompiledChain {
        guard original != shrunk, case .region(let name, let first as any SourceShrinkable)? = stages.first else { return self }
        return CompiledChain(stages: [.region(name: name, filter: first.forShrunkSource(original: original, shrunk: shrunk))]
                                 + stages.dropFirst())
    }
}
