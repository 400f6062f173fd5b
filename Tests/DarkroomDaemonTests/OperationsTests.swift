import Foundation
import XCTest
@testable import DarkroomDaemon

/// The pieces behind `darkroom status` and the metrics file.
final class OperationsTests: XCTestCase {
    func testMinuteCountsForgetWhatIsOlderThanTheWindow() {
        var counts = MinuteCounts()
        let now = 1_800_000_000.0
        counts.add(at: now)
        counts.add(at: now - 30 * 60)
        counts.add(at: now - 2 * 3600)
        counts.add(at: now - 25 * 3600)  // a day ago and more: its bucket was reused or is too old
        XCTAssertEqual(counts.count(lastMinutes: 60, now: now), 2)
        XCTAssertEqual(counts.count(lastMinutes: MinuteCounts.minutes, now: now), 3)
        XCTAssertEqual(counts.count(lastMinutes: 60, now: now + 3 * 86400), 0)
    }

    func testHistogramBucketsAreCumulative() {
        var h = FileSecondsHistogram()
        for s in [0.01, 0.2, 0.2, 3, 500] { h.observe(s) }
        let cumulative = h.cumulative
        XCTAssertEqual(cumulative.first, 1)
        XCTAssertEqual(cumulative[FileSecondsHistogram.bounds.firstIndex(of: 0.25)!], 3)
        XCTAssertEqual(cumulative.last, 4, "500 s is above the last bound: only in +Inf")
        XCTAssertEqual(h.count, 5)
    }

    func testMetricsEscapeLabelsAndCarryNoTimestamps() {
        let activity = DaemonActivity(configPath: "/etc/darkroom/config.yaml", configSHA256: "ab")
        activity.finished(watch: "a\"b\\", file: "x.jpg", status: .ok, error: nil, seconds: 0.3)
        let state = DaemonState(darkroomVersion: "0", pid: 1, processStartTicks: nil, started: Date(timeIntervalSince1970: 10),
                                updated: Date(), running: true,
                                config: .init(path: nil, sha256: "ab", loaded: Date(), reloads: [:]), workers: 1, watches: [])
        let text = MetricsText.render(state, activity: activity.snapshot())
        XCTAssertTrue(text.contains(#"darkroom_files_total{watch="a\"b\\",status="ok"} 1"#), text)
        XCTAssertTrue(text.contains(#"darkroom_file_seconds_bucket{watch="a\"b\\",le="0.5"} 1"#), text)
        XCTAssertTrue(text.contains("darkroom_start_time_seconds 10\n"), text)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            XCTAssertEqual(line.split(separator: " ").count, 2, "name{labels} value, no timestamp: \(line)")
        }
    }

    func testStateFileLocation() {
        let env = ["RUNTIME_DIRECTORY": "/run/darkroom:/run/other"]
        XCTAssertEqual(StateFileLocation.daemonFile(configured: "/x/s.json", configPath: nil, workingDirectory: "/", environment: env), "/x/s.json")
        XCTAssertEqual(StateFileLocation.daemonFile(configured: nil, configPath: "/etc/darkroom/config.yaml", workingDirectory: "/", environment: env),
                       "/run/darkroom/status.json")
        let a = StateFileLocation.daemonFile(configured: nil, configPath: "/a.yaml", workingDirectory: "/", environment: ["XDG_RUNTIME_DIR": "/run/user/7"])
        let b = StateFileLocation.daemonFile(configured: nil, configPath: "/b.yaml", workingDirectory: "/", environment: ["XDG_RUNTIME_DIR": "/run/user/7"])
        XCTAssertTrue(a.hasPrefix("/run/user/7/darkroom-"), a)
        XCTAssertNotEqual(a, b, "two configs, two files")
        XCTAssertEqual(StateFileLocation.candidates(configured: nil, configPath: "/a.yaml", workingDirectory: "/", environment: ["XDG_RUNTIME_DIR": "/run/user/7"]),
                       [a, StateFileLocation.serviceFile])
    }

    func testStateFileRoundTripsAndTheProcessIdentityTellsAPidReused() throws {
        let ticks = ProcessIdentity.startTicks(of: getpid())
        XCTAssertNotNil(ticks)
        XCTAssertTrue(ProcessIdentity.isAlive(pid: getpid(), startTicks: ticks))
        XCTAssertFalse(ProcessIdentity.isAlive(pid: getpid(), startTicks: ticks! + 1), "same pid, another process")
        let state = DaemonState(darkroomVersion: "0", pid: getpid(), processStartTicks: ticks, started: Date(timeIntervalSince1970: 1),
                                updated: Date(timeIntervalSince1970: 2.5), running: true,
                                config: .init(path: "/c.yaml", sha256: "ab", loaded: Date(timeIntervalSince1970: 1), reloads: ["success": 1]),
                                workers: 2, watches: [])
        let data = try state.jsonData()
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"process_start_ticks\""))
        XCTAssertEqual(try DaemonState.decode(data), state)
    }
}
