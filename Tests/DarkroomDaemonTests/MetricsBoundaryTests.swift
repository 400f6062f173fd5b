import Foundation
import XCTest
@testable import DarkroomDaemon

/// The edges of the figures an operator reads: Prometheus' `le` buckets (less than or equal),
/// the `+Inf` bucket that holds every file, and the sixty minutes of "last hour".
final class MetricsBoundaryTests: XCTestCase {
    /// The metrics file after one file of watch `w` took `seconds`.
    func metrics(afterOneFileOf seconds: Double) -> String {
        let activity = DaemonActivity(configPath: "/etc/darkroom/config.yaml", configSHA256: "ab")
        activity.finished(watch: "w", file: "x.jpg", status: .ok, error: nil, seconds: seconds)
        let state = DaemonState(darkroomVersion: "0", pid: 1, processStartTicks: nil, started: Date(timeIntervalSince1970: 10),
                                updated: Date(), running: true,
                                config: .init(path: nil, sha256: "ab", loaded: Date(), reloads: [:]), workers: 1, watches: [])
        return MetricsText.render(state, activity: activity.snapshot())
    }

    /// The value of the line that starts with `series` (name and labels).
    func value(_ series: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.map { String($0.dropFirst(series.count + 1)) }
    }

    func testAFileTakingExactlyABoundIsInThatBucket() {
        // `le` means less than or equal: a quarter-second file is in le="0.25", not only in le="0.5".
        let text = metrics(afterOneFileOf: 0.25)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="0.1"}"#, in: text), "0", text)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="0.25"}"#, in: text), "1", text)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="0.5"}"#, in: text), "1", text)
        let second = metrics(afterOneFileOf: 1)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="0.5"}"#, in: second), "0", second)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="1"}"#, in: second), "1", second)
    }

    func testTheInfBucketHoldsAFileSlowerThanTheLastBound() {
        // Prometheus requires le="+Inf" to equal _count: a 10-minute file is in it.
        let text = metrics(afterOneFileOf: 600)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="120"}"#, in: text), "0", text)
        XCTAssertEqual(value(#"darkroom_file_seconds_bucket{watch="w",le="+Inf"}"#, in: text), "1", text)
        XCTAssertEqual(value(#"darkroom_file_seconds_count{watch="w"}"#, in: text), "1", text)
        XCTAssertEqual(value(#"darkroom_file_seconds_sum{watch="w"}"#, in: text), "600", text)
    }

    func testTheLastHourIsSixtyMinutesIncludingTheCurrentOne() {
        // Thirty seconds into a minute: the minute 59 minutes back is in the hour, 60 back is not.
        let now = 1_800_000_030.0
        var counts = MinuteCounts()
        counts.add(at: now)
        counts.add(at: now - 59 * 60)
        counts.add(at: now - 60 * 60)
        counts.add(at: now - 61 * 60)
        XCTAssertEqual(counts.count(lastMinutes: 60, now: now), 2)
        XCTAssertEqual(counts.count(lastMinutes: 1, now: now), 1, "the current minute alone")
        XCTAssertEqual(counts.count(lastMinutes: 62, now: now), 4)
    }
}
