import Foundation
import XCTest

/// The figures `darkroom report` prints, checked against reports whose times and counts the
/// test chose: `--since` as a duration back from now, the median and 95th percentile, and
/// counts grouped in thousands in the text summary.
final class ReportFiguresTests: XCTestCase {
    /// A report time as the daemon writes it (UTC, milliseconds).
    static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    func testSinceADurationCountsBackFromNow() throws {
        let s = Scratch()
        let now = Date()
        for (name, ago) in [("recent", 10.0 * 60), ("hours", 3 * 3600.0), ("days", 3 * 86400.0)] {
            s.writeInPlace("reports/\(name).jpg.json", Array(ReportFixture.json(
                input: "/in/\(name).jpg", status: "ok", started: Self.timestamp(now.addingTimeInterval(-ago)), seconds: 0.1).utf8))
        }
        XCTAssertEqual(try reportSummary([s.path("reports")])["files"] as? Int, 3)
        XCTAssertEqual(try reportSummary([s.path("reports"), "--since", "1h"])["files"] as? Int, 1, "only the file of 10 minutes ago")
        XCTAssertEqual(try reportSummary([s.path("reports"), "--since", "30m"])["files"] as? Int, 1)
        XCTAssertEqual(try reportSummary([s.path("reports"), "--since", "4h"])["files"] as? Int, 2)
        XCTAssertEqual(try reportSummary([s.path("reports"), "--since", "1w"])["files"] as? Int, 3)
        XCTAssertEqual(try reportSummary([s.path("reports"), "--since", "5m"])["files"] as? Int, 0)
    }

    func testMedianAndNinetyFifthPercentileAreThoseOfTheFiles() throws {
        // Five files of 0.1 … 0.5 s: the median is the third, 0.3 s; the 95th percentile the
        // slowest, 0.5 s. The summary keeps times in buckets 5 % wide and gives a bucket's top.
        let s = Scratch()
        for i in 1...5 {
            s.writeInPlace("reports/f\(i).jpg.json", Array(ReportFixture.json(
                input: "/in/f\(i).jpg", status: "ok", seconds: Double(i) / 10).utf8))
        }
        let all = try reportSummary([s.path("reports")])
        let median = try XCTUnwrap(all["median_seconds"] as? Double)
        let p95 = try XCTUnwrap(all["p95_seconds"] as? Double)
        XCTAssertGreaterThanOrEqual(median, 0.3)
        XCTAssertLessThanOrEqual(median, 0.3 * 1.05)
        XCTAssertGreaterThanOrEqual(p95, 0.5)
        XCTAssertLessThanOrEqual(p95, 0.5 * 1.05)
        XCTAssertEqual(all["max_seconds"] as? Double, 0.5)
    }

    func testCountsAreGroupedInThousandsInTheText() throws {
        // 1,200 reports, every tenth failed: 1,080 ok and 120 failed, one output each.
        let s = Scratch()
        s.makeFolder("reports")
        let ok = ReportFixture.json(input: "/in/file-N.jpg", status: "ok", seconds: 0.1, outputBytes: [100])
        let bad = ReportFixture.json(input: "/in/file-N.jpg", status: "failed", code: "corrupt", seconds: 0.01)
        let writer = try python("""
            import sys
            folder, ok, bad = sys.argv[1], sys.argv[2], sys.argv[3]
            for i in range(1200):
                with open(f"{folder}/file-{i}.jpg.json", "w") as f:
                    f.write((bad if i % 10 == 0 else ok).replace("file-N", f"file-{i}"))
            """, arguments: [s.path("reports"), ok, bad])
        XCTAssertEqual(writer.status, 0, writer.stderr)

        let text = try darkroom(["report", s.path("reports")])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("1,200 reports in ") == true, text.stdout)
        let okLine = try XCTUnwrap(lines.first { $0.hasPrefix("  ok ") }, text.stdout)
        XCTAssertEqual(okLine.split(separator: " ").map(String.init), ["ok", "1,080"], okLine)
        let failedLine = try XCTUnwrap(lines.first { $0.hasPrefix("  failed ") }, text.stdout)
        XCTAssertEqual(failedLine.split(separator: " ").map(String.init), ["failed", "120", "corrupt", "120"], failedLine)
        XCTAssertTrue(lines.contains { $0.hasPrefix("outputs   1,080 files, ") }, text.stdout)
    }
}
