/// A configured filter: a value holding its resolved parameters.
///
/// Filters say *what* to compute. Scheduling (strips, threads, caching, fusion) belongs to
/// ``Pipeline`` and ``StripExecutor``. A concrete filter conforms to exactly one of
/// ``PointFilter``, ``RegionFilter`` or ``AnalysisFilter`` (which resolves to one of the other
/// two once a statistic of its input is known); each of those gives ``kind``, so a type that
/// conforms to none does not compile, and one that conforms to two is ambiguous.
public protocol Filter: Sendable {
    static var descriptor: FilterDescriptor { get }

    /// What the compiler does with the filter: the closed set it switches over exhaustively.
    var kind: FilterKind { get }

    /// Builds the filter from checked parameters; throws when parameters contradict each other
    /// (the config loader calls this at load time, so such errors never surface mid-job).
    init(parameters: ResolvedParameters) throws(ParameterError)

    /// True when the filter would leave every image unchanged; the compiler then drops it.
    var isIdentity: Bool { get }
}

extension Filter {
    public var isIdentity: Bool { false }
}

/// The three kinds of filter, each with the filter as that kind.
public enum FilterKind: Sendable {
    /// Fused with its neighbouring point filters into one pass.
    case point(any PointFilter)
    /// Runs its own kernels over a neighbourhood or moves pixels.
    case region(any RegionFilter)
    /// Measures its whole input first, then resolves to a point or region filter.
    case analysis(any AnalysisFilter)
}

/// A per-pixel filter: each output pixel is a function of the same input pixel alone. Runs of
/// point filters are fused into one pass, inside the node before them (see ``PointOperation``).
public protocol PointFilter: Filter {
    /// The operations on straight (unpremultiplied) RGBA, applied in order.
    var pointOperations: [any PointOperation] { get }
}

extension PointFilter {
    public var kind: FilterKind { .point(self) }
}

/// A filter that reads a neighbourhood of each output pixel or moves pixels.
public protocol RegionFilter: Filter {
    /// The size of the output for an input of `input`.
    func outputSize(for input: Size) -> Size

    /// How the filter computes for an input of `input`: the kernels the pipeline runs. The
    /// plan's output size must equal `outputSize(for: input)`.
    func plan(for input: Size) -> KernelPlan

    /// Whether some step of the plan reads the chain's source (``KernelPlan/Source/chainSource``).
    var readsChainSource: Bool { get }

    /// The plan when the chain's source (upright, before any filter) is `chainSource` big: what
    /// a filter that reads it implements; others need not.
    func plan(for input: Size, chainSource: Size) -> KernelPlan
}

extension RegionFilter {
    public var kind: FilterKind { .region(self) }
    public var readsChainSource: Bool { false }
    public func plan(for input: Size, chainSource: Size) -> KernelPlan { plan(for: input) }
}

extension RegionFilter {
    /// The input pixels needed to produce `output`: a halo for area filters, the inverse-mapped
    /// bounding box for geometric ones. It may reach past the input's bounds (the kernels say
    /// how those reads are answered).
    func inputRegion(for output: Rect, inputSize: Size) -> Rect {
        plan(for: inputSize).inputRegion(for: output)
    }
}
