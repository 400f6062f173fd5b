/// A region filter that needs an analysis pass only for some of its parameters (`crop` with
/// `gravity: attention`): the chain compiler runs ``analysis`` in its place when it is set, and
/// the filter itself, with no extra decode, otherwise.
protocol ContentAwareFilter: RegionFilter {
    /// The analysis pass these parameters need, or nil.
    var analysis: (any AnalysisFilter)? { get }
}

extension ContentAwareFilter {
    /// An analysis when these parameters need one, the filter itself otherwise.
    var kind: FilterKind { analysis.map { .analysis($0) } ?? .region(self) }
}
