import Foundation
import DarkroomDaemon

/// Everything `darkroom report` prints, accumulated one report at a time in constant memory:
/// counts, sums, the slowest few files and a histogram of times for the percentiles.
struct ReportSummary {
    /// Reports by status (`ok`, `failed`, `skipped`).
    var statuses: [String: Int] = [:]
    /// Failed reports by error code.
    var errorCodes: [String: Int] = [:]
    var watches: [String: Int] = [:]
    var files = 0
    var inputBytes = 0
    var outputFiles = 0
    var outputBytes = 0
    var totalSeconds = 0.0
    var first: Date?
    var last: Date?
    var slowest: [Slow] = []
    /// Files that are not reports (or not readable), skipped.
    var unreadable = 0
    private var times = TimeHistogram()

    static let slowestCount = 5

    struct Slow: Encodable {
        var path: String
        var watch: String
        var seconds: Double
        var status: String
    }

    mutating func add(_ r: JobReport.Summary, started: Date, finished: Date) {
        files += 1
        statuses[r.status.rawValue, default: 0] += 1
        if r.status == .failed { errorCodes[r.error?.code ?? "unknown", default: 0] += 1 }
        watches[r.watch, default: 0] += 1
        inputBytes += r.input.bytes
        outputFiles += r.outputs.count
        outputBytes += r.outputs.reduce(0) { $0 + $1.bytes }
        totalSeconds += r.timings.total
        times.add(r.timings.total)
        first = min(first ?? started, started)
        last = max(last ?? finished, finished)
        if slowest.count < Self.slowestCount || r.timings.total > slowest[slowest.count - 1].seconds {
            slowest.append(Slow(path: r.input.path, watch: r.watch, seconds: r.timings.total, status: r.status.rawValue))
            slowest.sort { $0.seconds > $1.seconds }
            if slowest.count > Self.slowestCount { slowest.removeLast() }
        }
    }

    /// From the first start to the last finish, in seconds (nil without reports).
    var periodSeconds: Double? {
        guard let first, let last else { return nil }
        return max(last.timeIntervalSince(first), 0)
    }

    /// Files per minute over the period; nil when it is too short to say (one file, or all at once).
    var filesPerMinute: Double? {
        guard let period = periodSeconds, period >= 1 else { return nil }
        return Double(files) / (period / 60)
    }

    // A bucket's upper bound can pass the slowest time itself (5 reports: "95th percentile
    // 248 ms, slowest 241 ms"): no quantile is above the largest time seen.
    var medianSeconds: Double? { times.quantile(0.5).map { min($0, maxSeconds ?? $0) } }
    var p95Seconds: Double? { times.quantile(0.95).map { min($0, maxSeconds ?? $0) } }
    var maxSeconds: Double? { slowest.first?.seconds }

    /// The `--json` form: every figure above, dates in ISO 8601; a
    /// figure that cannot be computed (no reports, a period too short for a rate) is left out,
    /// which `jq` reads as null.
    var json: JSON {
        JSON(files: files, statuses: statuses, errorCodes: errorCodes, watches: watches, inputBytes: inputBytes,
             outputFiles: outputFiles, outputBytes: outputBytes, first: first.map(ISOTime.format),
             last: last.map(ISOTime.format), periodSeconds: periodSeconds, filesPerMinute: filesPerMinute,
             totalSeconds: totalSeconds, medianSeconds: medianSeconds, p95Seconds: p95Seconds,
             maxSeconds: maxSeconds, slowest: slowest, unreadable: unreadable)
    }

    struct JSON: Encodable {
        var files: Int
        var statuses, errorCodes, watches: [String: Int]
        var inputBytes, outputFiles, outputBytes: Int
        var first, last: String?
        var periodSeconds, filesPerMinute: Double?
        var totalSeconds: Double
        var medianSeconds, p95Seconds, maxSeconds: Double?
        var slowest: [Slow]
        var unreadable: Int

        // Not keyEncodingStrategy: it would rewrite the dictionaries' keys (watch names) too.
        enum CodingKeys: String, CodingKey {
            case files, statuses, errorCodes = "error_codes", watches, inputBytes = "input_bytes"
            case outputFiles = "output_files", outputBytes = "output_bytes", first, last
            case periodSeconds = "period_seconds", filesPerMinute = "files_per_minute", totalSeconds = "total_seconds"
            case medianSeconds = "median_seconds", p95Seconds = "p95_seconds", maxSeconds = "max_seconds", slowest, unreadable
        }
    }
}

/// Times in logarithmic buckets 5 % wide, from 1 ms to about 3 hours: percentiles within 5 %
/// in a few kilobytes, however many files.
struct TimeHistogram {
    static let ratio = 1.05
    static let floor = 0.001
    private var buckets = [Int](repeating: 0, count: 320)
    private var count = 0

    mutating func add(_ seconds: Double) {
        let i = seconds <= Self.floor ? 0 : Int(log(seconds / Self.floor) / log(Self.ratio)) + 1
        buckets[min(i, buckets.count - 1)] += 1
        count += 1
    }

    /// The upper bound of the bucket holding the `q` quantile.
    func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Int((q * Double(count)).rounded(.up))
        var seen = 0
        for (i, n) in buckets.enumerated() {
            seen += n
            if seen >= max(rank, 1) { return i == 0 ? Self.floor : Self.floor * pow(Self.ratio, Double(i)) }
        }
        return nil
    }
}
