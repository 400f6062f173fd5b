import Dispatch

/// A chain ready to run: a list of passes over the image.
public struct CompiledChain: Sendable {
    public enum Stage: Sendable {
        /// Fused point filters: one pass over the pixels.
        case color(names: [String], operations: [ColorOperation])
        case region(name: String, filter: any RegionFilter)

        /// Filter names covered by the stage, for timings.
        public var names: [String] {
            switch self {
            case .color(let names, _): names
            case .region(let name, _): [name]
            }
        }
    }

    public let stages: [Stage]

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

    /// Runs every stage; returns the image and each stage's wall time in seconds.
    /// The input is consumed, so a caller that passes its last reference lets each stage free
    /// the previous image as soon as the next exists.
    public func run(_ image: consuming Image, executor: TileExecutor = TileExecutor()) -> (image: Image, timings: [StageTiming]) {
        var current = image
        var timings = [StageTiming]()
        for stage in stages {
            let start = DispatchTime.now().uptimeNanoseconds
            switch stage {
            case .color(_, let ops): current = ColorPass(operations: ops).apply(to: current, executor: executor)
            case .region(_, let filter): current = filter.apply(to: current, executor: executor)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            timings.append(StageTiming(filters: stage.names, seconds: seconds, size: current.size))
        }
        return (current, timings)
    }
}

/// How long one stage took, and the size it produced.
public struct StageTiming: Sendable, Hashable {
    public var filters: [String]
    public var seconds: Double
    public var size: Size
}
