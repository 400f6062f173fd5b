/// A sub-chain (a `group`'s chain) laid out as steps of its filter's ``KernelPlan``: compiled
/// as a chain is (identities dropped, neighbouring point filters fused into one pass), each
/// region filter's own steps appended with their sources renumbered. The pipeline then streams
/// it like any plan, and the regions its steps need (a blur's halo) reach back to the input.
public struct SubChainPlan: Sendable {
    let stages: [CompiledChain.Stage]

    public init(_ filters: [ResolvedFilter]) {
        stages = ChainCompiler.compile(filters).stages
    }

    /// Why `filter` cannot run inside a layer the size of the image, or nil when it can: it
    /// changes the size (resize, crop, pad, rotate by 90°…), or needs a statistic of its whole
    /// input first (trim, normalise…), which a layer drawn strip by strip does not have.
    public static func layerProblem(_ filter: any Filter) -> String? {
        let name = type(of: filter).descriptor.name
        let region: any RegionFilter
        switch filter.kind {
        case .analysis: return "\(name) measures its whole input first, which a layer does not have: use it outside the group"
        case .point: return nil
        case .region(let filter): region = filter
        }
        // Sizes that tell a change apart: not square, odd, and tiny.
        for size in [Size(width: 640, height: 427), Size(width: 31, height: 57), Size(width: 1, height: 1)]
        where region.outputSize(for: size) != size {
            return "\(name) changes the image's size (\(size.width)×\(size.height) → \(region.outputSize(for: size).width)×"
                + "\(region.outputSize(for: size).height)), and a group's layer keeps the image's size: use it outside the group"
        }
        return nil
    }

    /// Whether some step reads the chain's source.
    public var readsChainSource: Bool { CompiledChain(stages: stages).readsChainSource }

    /// The steps that run the sub-chain on `source` (an image of `size`), numbered from
    /// `first`, and the source the sub-chain's output is read from (`source` itself when every
    /// filter was an identity).
    public func steps(on source: KernelPlan.Source, size: Size, chainSource: Size?, first: Int)
        -> (steps: [KernelPlan.Step], output: KernelPlan.Source) {
        var steps = [KernelPlan.Step](), current = source
        for stage in stages {
            switch stage {
            case .point(let names, let program):
                steps.append(.init(PointProgramKernel(size: size, program: program), sources: [current], label: names.joined(separator: "+")))
            case .region(let name, let filter):
                let plan = filter.readsChainSource && chainSource != nil ? filter.plan(for: size, chainSource: chainSource!) : filter.plan(for: size)
                let base = first + steps.count, input = current
                for step in plan.steps {
                    let sources = step.sources.map { s -> KernelPlan.Source in
                        switch s {
                        case .input: input
                        case .step(let i): .step(base + i)
                        case .chainSource: .chainSource
                        }
                    }
                    steps.append(.init(step.kernel, sources: sources, label: step.label.map { "\(name) (\($0))" } ?? name))
                }
            case .analysis(let name, _):
                preconditionFailure("\(name) inside a sub-chain: refused when the chain was read (layerProblem)")
            }
            current = .step(first + steps.count - 1)
        }
        return (steps, current)
    }
}
