/// A filter that needs a statistic of its whole input before it can say what it computes (auto
/// levels, normalise, trim, smart crop): the pipeline first runs the chain up to it into a
/// ``StatisticsSink`` (one more decode of the part before it), then asks for the filter to run,
/// and compiles the rest of the graph, so an output's size may follow the statistic.
public protocol AnalysisFilter: Filter {
    /// What to measure on the filter's input.
    var statisticRequest: StatisticRequest { get }

    /// The filter to run, for the measured statistic: a point or a region filter.
    func resolved(with statistics: ImageStatistics) -> any Filter

    /// The filter as it would run for the statistic that costs most (trim: no trim), for what is
    /// decided before anything is decoded: the pixel limit on every stage and the job's memory
    /// estimate.
    var worstCase: any Filter { get }
}

extension AnalysisFilter {
    public var kind: FilterKind { .analysis(self) }
}
