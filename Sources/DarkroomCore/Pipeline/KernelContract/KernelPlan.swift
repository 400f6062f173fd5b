/// How a filter computes, for one input size: a few kernels, each reading the filter's input or
/// an earlier step's output. Most filters are one kernel; a separable blur is two (across, then
/// down), so the rows the second pass shares between strips are computed once and cached.
public struct KernelPlan: Sendable {
    /// Where a step's input comes from.
    public enum Source: Sendable, Hashable {
        /// The filter's input.
        case input
        /// The output of step `i` of this plan (an earlier one).
        case step(Int)
        /// The chain's source: the decoded image turned upright, before any filter of the chain
        /// (a filter that blends with the original). A chain whose filters read it is decoded
        /// whole (no crop- or shrink-on-load) and its leading colour filters are not fused into
        /// the decoder's node. Only filters whose ``RegionFilter/readsChainSource`` is true may
        /// name it, in ``RegionFilter/plan(for:chainSource:)``.
        case chainSource
    }

    /// One kernel of the plan and where each of its inputs comes from.
    public struct Step: Sendable {
        var kernel: any PixelKernel
        /// One per `kernel.inputs`, in order.
        var sources: [Source]
        /// A name for reports, e.g. "gaussian_blur (across)".
        var label: String?

        public init(_ kernel: any PixelKernel, sources: [Source] = [.input], label: String? = nil) {
            precondition(kernel.inputs.count == sources.count, "one source per kernel input")
            self.kernel = kernel
            self.sources = sources
            self.label = label
        }
    }

    /// The steps in order; the last one's output is the filter's output.
    var steps: [Step]

    public init(_ steps: [Step]) {
        precondition(!steps.isEmpty, "a plan needs at least one step")
        self.steps = steps
    }

    public init(_ kernel: any PixelKernel) { self.init([Step(kernel)]) }

    public var outputSize: Size { steps[steps.count - 1].kernel.outputSize }

    /// The pixels of the filter's input that `output` needs, through every step (the union over
    /// the paths from the input to the last step).
    func inputRegion(for output: Rect) -> Rect {
        var wanted = [Rect?](repeating: nil, count: steps.count)
        wanted[steps.count - 1] = output
        var fromInput = Rect(x: 0, y: 0, width: 0, height: 0)
        for index in steps.indices.reversed() {
            guard let rect = wanted[index], !rect.isEmpty else { continue }
            let step = steps[index]
            for (region, source) in zip(step.kernel.inputRegions(for: rect), step.sources) {
                switch source {
                case .input: fromInput = fromInput.union(region)
                case .step(let i): wanted[i] = wanted[i].map { $0.union(region) } ?? region
                case .chainSource: break  // another image; not part of the filter's input
                }
            }
        }
        return fromInput
    }

    public var preservesOpacity: Bool { steps.allSatisfy { $0.kernel.preservesOpacity } }

    public var preservesGrey: Bool { steps.allSatisfy { $0.kernel.preservesGrey } }
}
