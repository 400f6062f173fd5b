/// A configured filter: a value holding its resolved parameters.
///
/// Filters say *what* to compute. Scheduling (tiles, threads, fusion) belongs to
/// ``TileExecutor`` and ``ChainCompiler``. A concrete filter conforms to ``PointFilter`` or
/// ``RegionFilter``.
public protocol Filter: Sendable {
    static var descriptor: FilterDescriptor { get }

    /// Builds the filter from checked parameters; throws when parameters contradict each other
    /// (the config loader calls this at load time, so such errors never surface mid-job).
    init(parameters: ResolvedParameters) throws(ParameterError)

    /// True when the filter would leave every image unchanged; the compiler then drops it.
    var isIdentity: Bool { get }
}

extension Filter {
    public var isIdentity: Bool { false }
}

/// A per-pixel colour operation. Runs of point filters are fused into one pass over the image.
public protocol PointFilter: Filter {
    /// The operations on straight (unpremultiplied) colour, applied in order.
    var colorOperations: [ColorOperation] { get }
}

/// A filter that reads a neighbourhood of each output pixel or moves pixels.
public protocol RegionFilter: Filter {
    /// The size of the output for an input of `input`.
    func outputSize(for input: Size) -> Size

    /// The input pixels needed to produce `output`: a halo for area filters, the inverse-mapped
    /// bounding box for geometric ones. It may reach past the input's bounds (edge handling
    /// is the filter's own).
    func inputRegion(for output: Rect, inputSize: Size) -> Rect

    /// Produces the whole output. Implementations render through `executor` tile by tile and
    /// never start threads themselves.
    func apply(to input: Image, executor: TileExecutor) -> Image
}
