/// The reducing sink of an analysis pass: each output strip is measured on the thread that
/// rendered it (in parallel), and the strips' statistics are folded in order as they arrive,
/// so nothing of the image is kept but the statistic.
struct StatisticsSink: StripSink {
    struct Measure: StripQuantiser {
        let size: Size
        let request: StatisticRequest
        func prepare(_ rows: RegionView) -> ImageStatistics {
            var partial = ImageStatistics(size: size, request: request)
            partial.measure(rows, request: request)
            return partial
        }
    }

    let quantiser: Measure
    private(set) var statistics: ImageStatistics

    init(size: Size, request: StatisticRequest) {
        quantiser = Measure(size: size, request: request)
        statistics = ImageStatistics(size: size, request: request)
    }

    mutating func write(_ strip: ImageStatistics, rows: Range<Int>) throws { statistics.fold(strip) }
}
