import Foundation
import XCTest
@testable import DarkroomDaemon

/// The figures of the one log line per file, at the values where a formatting slip shows:
/// hundredths below ten, sizes at the unit boundaries, outputs told apart by their folder.
final class JobLogLineFigureTests: XCTestCase {
    func line(seconds: Double, outputs: [(path: String, bytes: Int)]) -> String {
        let now = Date()
        let report = JobReport(
            watch: "w", input: .init(path: "/in/a.jpg"),
            outputs: outputs.map {
                .init(path: $0.path, format: "jpeg", width: 4, height: 3, bytes: $0.bytes, chain: [], seed: 1, nodes: [],
                      peakPixelBytes: 0, shrinkOnLoad: 1)
            },
            timings: .init(queued: now, started: now, finished: now, decode: 0, encode: 0, total: seconds),
            status: .ok)
        return JobLogLine.text(for: report, inputName: "a.jpg")
    }

    func testTimesKeepTwoDecimalsWithTheirLeadingZero() {
        for (seconds, text) in [(0.05, "0.05 s"), (0.012, "0.01 s"), (0.0, "0.00 s"), (1.07, "1.07 s"), (2.5, "2.50 s"),
                                (61.234, "61.23 s")] {
            XCTAssertEqual(line(seconds: seconds, outputs: [("/o/t/a.jpg", 10)]), "a.jpg → t/a.jpg (4×3, 10 B) in \(text)")
        }
    }

    func testSizesInDecimalUnits() {
        for (bytes, text) in [(999, "999 B"), (1000, "1 KB"), (84_499, "84 KB"), (1_000_000, "1.0 MB"), (1_250_000, "1.3 MB"),
                              (25_000_000, "25.0 MB")] {
            XCTAssertEqual(line(seconds: 0.5, outputs: [("/o/t/a.jpg", bytes)]), "a.jpg → t/a.jpg (4×3, \(text)) in 0.50 s")
        }
    }

    func testOutputsOfTheSameNameAreToldApartByTheirFolder() {
        XCTAssertEqual(line(seconds: 0.5, outputs: [("/srv/out/thumbs/a.jpg", 10), ("/srv/out/large/a.jpg", 20)]),
                       "a.jpg → thumbs/a.jpg (4×3, 10 B), large/a.jpg (4×3, 20 B) in 0.50 s")
    }
}
