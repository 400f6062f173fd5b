/// Spans of wall-clock time (monotonic nanoseconds) in which one stage of a render ran, kept in
/// the order they were recorded. A stage that runs on one thread at a time (the decoder, the
/// encoder) records spans that do not overlap each other.
struct WallSpans: Sendable {
    private(set) var spans = [(start: UInt64, end: UInt64)]()

    mutating func record(from start: UInt64, to end: UInt64) {
        spans.append((start, max(start, end)))
    }

    var nanoseconds: UInt64 { spans.reduce(0) { $0 + ($1.end - $1.start) } }

    /// The time in which both this stage and `other` ran: a sweep over the two sorted lists.
    func overlap(with other: WallSpans) -> UInt64 {
        let a = spans.sorted { $0.start < $1.start }, b = other.spans.sorted { $0.start < $1.start }
        var i = 0, j = 0, total: UInt64 = 0
        while i < a.count, j < b.count {
            let start = max(a[i].start, b[j].start), end = min(a[i].end, b[j].end)
            if end > start { total += end - start }
            if a[i].end < b[j].end { i += 1 } else { j += 1 }
        }
        return total
    }

    /// Each stage's share of wall time: its own spans, less half of the time both ran. The
    /// decoder and the encoder run on different threads at once; splitting the shared seconds
    /// evenly counts every second of wall time once, so the two shares never add up to more
    /// than the render took (a report's `decode + encode ≤ total`).
    static func shares(_ first: WallSpans, _ second: WallSpans) -> (first: Double, second: Double) {
        let shared = first.overlap(with: second)
        let half = Double(shared) / 2
        return ((Double(first.nanoseconds) - half) / 1e9, (Double(second.nanoseconds) - half) / 1e9)
    }
}
