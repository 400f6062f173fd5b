import Foundation
import Logging
import XCTest
@testable import DarkroomDaemon

final class JobLogLineTests: XCTestCase {
    func testSuccessLineNamesEachOutputWithSizeAndTheTime() {
        let now = Date()
        let report = JobReport(
            watch: "w", input: .init(path: "/in/photo.jpg"),
            outputs: [
                .init(path: "/out/thumbs/photo.jpg", format: "jpeg", width: 720, height: 480, bytes: 84_200, chain: [], seed: 1, nodes: [], peakPixelBytes: 0, shrinkOnLoad: 1),
                .init(path: "/out/postcards/photo.png", format: "png", width: 1200, height: 800, bytes: 1_340_000, chain: [], seed: 1, nodes: [], peakPixelBytes: 0, shrinkOnLoad: 1),
            ],
            timings: .init(queued: now, started: now, finished: now, decode: 0, encode: 0, total: 0.4213),
            status: .ok)
        XCTAssertEqual(JobLogLine.text(for: report, inputName: "photo.jpg"),
                       "photo.jpg → thumbs/photo.jpg (720×480, 84 KB), postcards/photo.png (1200×800, 1.3 MB) in 0.42 s")
    }

    func testSuccessLineCarriesTheForgivenProblem() {
        let now = Date()
        var input = JobReport.Input(path: "/in/photo.jpg")
        input.warning = "EXIF left out: EXIF block is unreadable (no entries)"
        let report = JobReport(
            watch: "w", input: input,
            outputs: [.init(path: "/out/photo.jpg", format: "jpeg", width: 7, height: 5, bytes: 900, chain: [], seed: 1, nodes: [],
                            peakPixelBytes: 0, shrinkOnLoad: 1)],
            timings: .init(queued: now, started: now, finished: now, decode: 0, encode: 0, total: 0.1),
            status: .ok)
        XCTAssertEqual(JobLogLine.text(for: report, inputName: "photo.jpg"),
                       "photo.jpg → out/photo.jpg (7×5, 900 B) in 0.10 s (warning: EXIF left out: EXIF block is unreadable (no entries))")
    }

    func testFailureLineGivesCodeAndMessage() {
        let now = Date()
        let report = JobReport(watch: "w", input: .init(path: "/in/photo.jpg"),
                               timings: .init(queued: now, started: now, finished: now, decode: 0, encode: 0, total: 0),
                               status: .failed, error: ReportError(code: .truncated, message: "JPEG data ends early"))
        XCTAssertEqual(JobLogLine.text(for: report, inputName: "photo.jpg"), "photo.jpg failed: truncated: JPEG data ends early")
    }
}

final class StderrLogHandlerTests: XCTestCase {
    let date = Date(timeIntervalSince1970: 0)

    func testALineBreakInAFileNameStaysOnOneLine() {
        let line = StderrLogHandler.format(level: .info, message: "new\nline.png was already processed",
                                           metadata: ["report": "/r/new\nline.png.json"], label: "d",
                                           date: date, json: false, journal: true)
        XCTAssertFalse(line.contains("\n"), line)
        XCTAssertEqual(line, "<6>new\\nline.png was already processed [report=/r/new\\nline.png.json]")
    }

    func testEscapeSequencesInANameReachTheTextLogEscaped() {
        let line = StderrLogHandler.format(level: .info, message: "\u{1B}[2J\u{1B}[31mfake.png\u{9B}1m\u{7F}", metadata: [:],
                                           label: "d", date: date, json: false, journal: true)
        XCTAssertEqual(line, "<6>\\x1B[2J\\x1B[31mfake.png\\u{9B}1m\\x7F")
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    func testAHandlersLevelIsItsOwnAndTheConfigsLevelAppliesUntilItIsSet() {
        let shared = Locked(StderrLogHandler.Settings(level: .info, json: false, journal: false))
        var a = StderrLogHandler(label: "a", settings: shared)
        let b = StderrLogHandler(label: "b", settings: shared)
        a.logLevel = .trace
        XCTAssertEqual(a.logLevel, .trace)
        XCTAssertEqual(b.logLevel, .info, "setting one handler's level leaves the others alone")
        shared.withLock { $0.level = .warning }  // a reload
        XCTAssertEqual(b.logLevel, .warning)
        XCTAssertEqual(a.logLevel, .trace)
    }

    /// The unit is picked after rounding: never "1000 KB" or "1000.0 MB".
    func testSizesPickTheirUnitAfterRounding() {
        let cases: [(Int, String)] = [(999, "999 B"), (1000, "1 KB"), (999_499, "999 KB"), (999_500, "1.0 MB"),
                                      (999_700, "1.0 MB"), (12_345_678, "12.3 MB"), (999_949_999, "999.9 MB"),
                                      (999_950_000, "1.00 GB"), (1_234_567_890, "1.23 GB"), (20_050_000_000, "20.05 GB")]
        for (bytes, text) in cases { XCTAssertEqual(ByteText.format(bytes), text, "\(bytes) bytes") }
    }

    func testTimestampsAreUTCWithMilliseconds() {
        XCTAssertEqual(ISOTime.format(Date(timeIntervalSince1970: 1_746_100_800.25)), "2025-05-01T12:00:00.250Z")
        XCTAssertEqual(ISOTime.format(Date(timeIntervalSince1970: 0.9996)), "1970-01-01T00:00:01.000Z")
    }

    func testNamesThatAreNotUTF8AreCarriedExactlyAndShownEscaped() {
        let raw: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF] + Array(".png".utf8)
        let name = RawName.string(fromBytes: raw)
        XCTAssertEqual(RawName.bytes(of: name), raw, "the system calls get the very same bytes back")
        XCTAssertEqual(RawName.display(name), "caf\\xE9\\xFF.png")
        XCTAssertEqual(RawName.string(fromBytes: Array("ünï 写真.png".utf8)), "ünï 写真.png")
        XCTAssertEqual(RawName.display("new\nline\u{1B}.png"), "new\\nline\\x1B.png")
        // A name holding a backslash as text must not read as an escape: it is doubled.
        let literal = "caf\\xE9.png"
        XCTAssertEqual(RawName.display(literal), "caf\\\\xE9.png")
        XCTAssertNotEqual(RawName.display(literal), RawName.display(RawName.string(fromBytes: Array("caf".utf8) + [0xE9] + Array(".png".utf8))))
    }

    func testJournalLinesStartWithTheSyslogPriority() {
        let error = StderrLogHandler.format(level: .error, message: "disk full", metadata: [:], label: "d",
                                            date: date, json: false, journal: true)
        XCTAssertEqual(error, "<3>disk full")
        let info = StderrLogHandler.format(level: .info, message: "ok", metadata: ["watch": "photos"], label: "d",
                                           date: date, json: false, journal: true)
        XCTAssertEqual(info, "<6>ok [watch=photos]")
    }

    func testTextLinesOutsideTheJournalCarryTimeAndLevelOnOneLine() {
        let line = StderrLogHandler.format(level: .warning, message: "a\nb", metadata: [:], label: "d",
                                           date: date, json: false, journal: false)
        XCTAssertEqual(line, "1970-01-01T00:00:00.000Z warning a\\nb")
    }

    func testJSONLinesAreOneObjectEach() throws {
        let line = StderrLogHandler.format(level: .notice, message: "started", metadata: ["watch": "photos"], label: "darkroom",
                                           date: date, json: true, journal: true)
        XCTAssertTrue(line.hasPrefix("<5>{"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.dropFirst(3).utf8)) as? [String: String])
        XCTAssertEqual(object["message"], "started")
        XCTAssertEqual(object["level"], "notice")
        XCTAssertEqual(object["watch"], "photos")
        XCTAssertFalse(line.contains("\n"))
    }

    func testJournalIsRecognisedOnlyWhenItIsReallyStderr() {
        XCTAssertFalse(LogSetup.stderrIsJournal(environment: [:]))
        XCTAssertFalse(LogSetup.stderrIsJournal(environment: ["JOURNAL_STREAM": "1:2"]))
        var st = stat()
        XCTAssertEqual(fstat(STDERR_FILENO, &st), 0)
        XCTAssertTrue(LogSetup.stderrIsJournal(environment: ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"]))
    }
}
