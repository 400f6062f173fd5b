import Foundation
import XCTest

/// `darkroom report` on folders of reports with known contents: counts, error codes, sizes,
/// the slowest file, the filters, the failed list, and 100,000 reports in bounded memory.
final class ReportCommandTests: XCTestCase {
    static let errorCodes = ["not_an_image", "corrupt", "truncated", "unsupported", "too_large", "io",
                             "encode_failed", "chain_failed", "write_failed"]

    /// 5 ok (0.1 … 0.5 s, two outputs of 100 and 50 bytes each), one failure per error code,
    /// 1 skipped, one report of another watch in a subfolder, one old report, one broken file.
    func makeReports(_ s: Scratch) {
        for i in 1...5 {
            s.writeInPlace("reports/ok\(i).jpg.json", Array(ReportFixture.json(
                input: "/in/ok\(i).jpg", status: "ok", seconds: Double(i) / 10, outputBytes: [100, 50]).utf8))
        }
        for (i, code) in Self.errorCodes.enumerated() {
            s.writeInPlace("reports/bad-\(code).jpg.json", Array(ReportFixture.json(
                input: s.path("inbox/bad-\(code).jpg"), status: "failed", code: code,
                started: "2026-11-20T10:0\(i).00.000Z".replacingOccurrences(of: ".00.000Z", with: ":00.000Z"), seconds: 0.01).utf8))
        }
        s.writeInPlace("reports/empty.png.json", Array(ReportFixture.json(input: "/in/empty.png", status: "skipped", seconds: 0.001).utf8))
        s.writeInPlace("reports/sub/scan.png.json", Array(ReportFixture.json(
            watch: "scans", input: "/in/sub/scan.png", status: "ok", started: "2026-11-20T10:30:00.000Z", seconds: 2.5,
            outputBytes: [1000]).utf8))
        s.writeInPlace("reports/old.jpg.json", Array(ReportFixture.json(
            input: "/in/old.jpg", status: "ok", started: "2020-01-01T00:00:00.000Z", seconds: 0.15, outputBytes: [7]).utf8))
        s.writeInPlace("reports/broken.jpg.json", Array("{ not json".utf8))
        s.writeInPlace("reports/.darkroom-x.json.123.tmp", Array("half a report".utf8))
    }

    func testSummaryCountsStatusesErrorCodesSizesAndTheSlowest() throws {
        let s = Scratch()
        makeReports(s)
        let all = try reportSummary([s.path("reports")])
        XCTAssertEqual(all["files"] as? Int, 17)
        XCTAssertEqual(all["statuses"] as? [String: Int], ["ok": 7, "failed": 9, "skipped": 1])
        XCTAssertEqual(all["error_codes"] as? [String: Int], Dictionary(uniqueKeysWithValues: Self.errorCodes.map { ($0, 1) }))
        XCTAssertEqual(all["output_bytes"] as? Int, 5 * 150 + 1000 + 7)
        XCTAssertEqual(all["output_files"] as? Int, 5 * 2 + 1 + 1)
        XCTAssertEqual(all["input_bytes"] as? Int, 17 * 1000)
        XCTAssertEqual(all["unreadable"] as? Int, 1, "the broken report is counted apart; the hidden temporary is not read")
        XCTAssertEqual(all["watches"] as? [String: Int], ["photos": 16, "scans": 1])
        let slowest = try XCTUnwrap(all["slowest"] as? [[String: Any]])
        XCTAssertEqual(slowest.count, 5)
        XCTAssertEqual(slowest.map { $0["path"] as? String }, ["/in/sub/scan.png", "/in/ok5.jpg", "/in/ok4.jpg", "/in/ok3.jpg", "/in/ok2.jpg"])
        XCTAssertEqual(all["max_seconds"] as? Double, 2.5)

        let recent = try reportSummary([s.path("reports"), "--since", "2026-11-19", "--watch", "photos"])
        XCTAssertEqual(recent["statuses"] as? [String: Int], ["ok": 5, "failed": 9, "skipped": 1], "the 2020 report and the scans watch are left out")
        let period = try XCTUnwrap(recent["period_seconds"] as? Double)
        XCTAssertEqual(period, 8 * 60 + 0.01, accuracy: 0.001, "from the first start (10:00) to the last finish (10:08:00.01)")
        XCTAssertEqual(try XCTUnwrap(recent["files_per_minute"] as? Double), 15 / (period / 60), accuracy: 0.001)

        let text = try darkroom(["report", s.path("reports")])
        XCTAssertEqual(text.status, 0, text.stderr)
        for expected in ["17 reports in \(s.path("reports"))", "ok", "failed", "not_an_image 1", "slowest", "/in/sub/scan.png",
                         "outputs   12 files, 2 KB"] {
            XCTAssertTrue(text.stdout.contains(expected), "missing \"\(expected)\" in:\n\(text.stdout)")
        }
    }

    /// Five reports of 0.1 … 0.5 s: the 95th percentile is the slowest time, never above it
    /// (a histogram bucket's upper bound once gave "95th percentile 248 ms, slowest 241 ms").
    func testPercentilesNeverExceedTheSlowestTime() throws {
        let s = Scratch()
        for (i, seconds) in [0.101, 0.152, 0.199, 0.223, 0.241].enumerated() {
            s.writeInPlace("reports/f\(i).jpg.json", Array(ReportFixture.json(input: "/in/f\(i).jpg", status: "ok", seconds: seconds).utf8))
        }
        let all = try reportSummary([s.path("reports")])
        let (median, p95, max) = (try XCTUnwrap(all["median_seconds"] as? Double), try XCTUnwrap(all["p95_seconds"] as? Double),
                                  try XCTUnwrap(all["max_seconds"] as? Double))
        XCTAssertEqual(max, 0.241)
        XCTAssertLessThanOrEqual(p95, max)
        XCTAssertLessThanOrEqual(median, p95)
        XCTAssertEqual(median, 0.199, accuracy: 0.199 * 0.05, "within the histogram's 5 %")
    }

    func testFailedListsEachFailedFileAndPathsPointWhereTheFileIsNow() throws {
        let s = Scratch()
        makeReports(s)
        // One of the failed files was moved to the failed folder, as the daemon does.
        s.writeInPlace("failed/bad-corrupt.jpg", Array("x".utf8))
        s.writeConfig("""
            watches:
              - name: photos
                path: \(s.path("inbox"))
                failed_dir: \(s.path("failed"))
                reports_dir: \(s.path("reports"))
                outputs:
                  - path: \(s.path("out/{stem}.jpg"))
                    chain: [invert]
            """)
        let lines = try darkroom(["report", s.path("reports"), "--failed"])
        XCTAssertEqual(lines.status, 0, lines.stderr)
        let failed = lines.stdout.split(separator: "\n")
        XCTAssertEqual(failed.count, 9, lines.stdout)
        for code in Self.errorCodes {
            XCTAssertEqual(failed.filter { $0.contains("bad-\(code).jpg") && $0.contains("\(code): the \(code) message") }.count, 1, lines.stdout)
        }
        let paths = try darkroom(["report", "--config", s.path("config.yaml"), "--failed", "--paths"])
        XCTAssertEqual(paths.status, 0, paths.stderr)
        let expected = Self.errorCodes.map { $0 == "corrupt" ? s.path("failed/bad-corrupt.jpg") : s.path("inbox/bad-\($0).jpg") }
        XCTAssertEqual(paths.stdout.split(separator: "\n").map(String.init).sorted(), expected.sorted())

        let json = try darkroom(["report", s.path("reports"), "--failed", "--json", "--since", "2026-11-20T10:05:00Z"])
        let objects = try json.stdout.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String])
        }
        XCTAssertEqual(Set(objects.compactMap { $0["code"] }), Set(Self.errorCodes.suffix(4)), "finished at or after 10:05")
    }

    func testExplainsMistakes() throws {
        let s = Scratch()
        let missing = try darkroom(["report", s.path("nowhere")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("cannot read the folder \(s.path("nowhere"))"), missing.stderr)
        let since = try darkroom(["report", s.path("."), "--since", "yesterday"])
        XCTAssertNotEqual(since.status, 0)
        XCTAssertTrue(since.stderr.contains("expected a duration back from now"), since.stderr)
        let paths = try darkroom(["report", s.path("."), "--paths"])
        XCTAssertNotEqual(paths.status, 0)
        XCTAssertTrue(paths.stderr.contains("use it with --failed"), paths.stderr)
    }

    /// 100,000 reports of about 1.3 KB each (130 MB): a command that held them all would need
    /// hundreds of MB; streaming needs a few tens. The bound is generous on purpose.
    func testOneHundredThousandReportsInBoundedMemory() throws {
        let s = Scratch()
        s.makeFolder("reports")
        let count = 100_000
        // Python writes them: a hundred thousand files from a debug XCTest build take minutes.
        let ok = ReportFixture.json(input: "/in/file-N.jpg", status: "ok", seconds: 0.25, outputBytes: [200])
        let bad = ReportFixture.json(input: "/in/file-N.jpg", status: "failed", code: "corrupt", seconds: 0.01)
        let writer = try python("""
            import sys
            folder, ok, bad, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
            for i in range(count):
                with open(f"{folder}/file-{i}.jpg.json", "w") as f:
                    f.write((bad if i % 10 == 0 else ok).replace("file-N", f"file-{i}"))
            """, arguments: [s.path("reports"), ok, bad, String(count)])
        XCTAssertEqual(writer.status, 0, writer.stderr)

        let (result, peakKiB) = try darkroomPeakRSS(["report", s.path("reports"), "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        XCTAssertEqual(summary["statuses"] as? [String: Int], ["ok": 90_000, "failed": 10_000])
        XCTAssertEqual(summary["output_bytes"] as? Int, 90_000 * 200)
        XCTAssertGreaterThan(peakKiB, 0)
        XCTAssertLessThan(peakKiB, 128 * 1024, "peak RSS \(peakKiB) KiB for \(count) reports")
    }
}
