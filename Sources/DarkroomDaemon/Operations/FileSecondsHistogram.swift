/// How long files took, in the cumulative buckets Prometheus histograms use.
struct FileSecondsHistogram: Sendable {
    /// Upper bounds in seconds: a thumbnail takes tenths of a second, a large postcard several.
    static let bounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

    /// Observations at or below each bound (not cumulative; ``cumulative`` adds them up).
    private(set) var counts = [Int](repeating: 0, count: bounds.count)
    private(set) var count = 0
    private(set) var sum = 0.0

    mutating func observe(_ seconds: Double) {
        count += 1
        sum += seconds
        if let i = Self.bounds.firstIndex(where: { seconds <= $0 }) { counts[i] += 1 }
    }

    /// Observations at or below each bound, as `_bucket{le=…}` lines need them.
    var cumulative: [Int] {
        var running = 0
        return counts.map { running += $0; return running }
    }
}
