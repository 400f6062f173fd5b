/// Counts of events per minute over the last day, in a fixed ring of 1,440 buckets, so "done in
/// the last hour" costs the same memory after a year as after a minute.
struct MinuteCounts: Sendable {
    static let minutes = 24 * 60
    private var buckets = [Int](repeating: 0, count: minutes)
    /// The minute (since 1970) each bucket holds; a bucket of an older minute counts as empty.
    private var bucketMinute = [Int](repeating: -1, count: minutes)

    mutating func add(at seconds: Double) {
        let minute = Int(seconds / 60)
        let i = minute % Self.minutes
        if bucketMinute[i] != minute {
            bucketMinute[i] = minute
            buckets[i] = 0
        }
        buckets[i] += 1
    }

    /// Events in the `minutes` minutes up to `now` (the current minute included).
    func count(lastMinutes minutes: Int, now seconds: Double) -> Int {
        let current = Int(seconds / 60)
        var total = 0
        for (i, minute) in bucketMinute.enumerated() where minute > current - minutes && minute <= current {
            total += buckets[i]
        }
        return total
    }
}
