import DarkroomCodecs
import Foundation
import Glibc
import XCTest

/// Runs the real `darkroom run` on temporary folders, drops files in the ways people and tools
/// do, and checks what an operator would: outputs, reports, where inputs went, the exit code.
/// Every wait polls with a deadline; nothing asserts how long anything took.
final class DaemonEndToEndTests: XCTestCase {
    func config(_ s: Scratch, onSuccess: String = "move", workers: Int = 2) -> String {
        """
        workers: \(workers)
        queue_capacity: 64
        log: { level: debug, format: text }
        watches:
          - name: photos
            path: \(s.path("inbox"))
            settle_ms: 100
            on_success: \(onSuccess)
            done_dir: \(s.path("done"))
            failed_dir: \(s.path("failed"))
            reports_dir: \(s.path("reports"))
            outputs:
              - path: \(s.path("out/thumbs/{stem}.png"))
                chain:
                  - resize: { width: 24 }
              - path: \(s.path("out/{watch}/{stem}.jpg"))
                quality: 80
                chain:
                  - sepia: { intensity: random }
        """
    }

    func testGoodFilesAreProcessedAndBadOnesFailWithoutStoppingTheDaemon() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)

        let png = try picture(width: 48, height: 32, format: .png)
        let jpeg = try picture(width: 60, height: 40, format: .jpeg)
        var corrupt = jpeg
        for i in 20..<min(corrupt.count - 2, 400) { corrupt[i] = UInt8(truncatingIfNeeded: i * 7) }
        s.writeInPlace("inbox/copied.png", png)
        s.writeAndRename("inbox/renamed.jpg", jpeg)
        s.writeInPlace("inbox/corrupt.jpg", corrupt)
        s.writeInPlace("inbox/truncated.png", Array(png.prefix(png.count / 2)))
        s.writeInPlace("inbox/notes.jpg", Array("a shopping list, not a picture\n".utf8))
        s.writeInPlace("inbox/.hidden.png", png)
        s.writeInPlace("inbox/partial.png.part", png)
        s.writeInPlace("inbox/readme.txt", Array("ignored".utf8))

        let all = ["copied.png", "corrupt.jpg", "notes.jpg", "renamed.jpg", "truncated.png"]
        XCTAssertTrue(eventually { s.files(in: "reports") == all.map { $0 + ".json" } && s.files(in: "inbox").count == 3 },
                      "reports: \(s.files(in: "reports")); inbox: \(s.files(in: "inbox")); log:\n\(daemon.log)")

        // Good files: outputs of the configured size, inputs moved to done, reports ok.
        XCTAssertEqual(s.files(in: "done"), ["copied.png", "renamed.jpg"])
        for (name, stem, width, height) in [("copied.png", "copied", 48, 32), ("renamed.jpg", "renamed", 60, 40)] {
            let thumb = try XCTUnwrap(s.read("out/thumbs/\(stem).png"), "thumbnail of \(name)")
            let thumbInfo = try ImageCodec.readInfo(thumb)
            XCTAssertEqual([thumbInfo.width, thumbInfo.height], [24, 24 * height / width], name)
            let sepia = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/photos/\(stem).jpg")))
            XCTAssertEqual([sepia.width, sepia.height, sepia.format == .jpeg ? 1 : 0], [width, height, 1], name)

            let report = try XCTUnwrap(s.report("reports/\(name).json"))
            XCTAssertEqual(report["status"] as? String, "ok", name)
            XCTAssertTrue(report["error"] is NSNull)
            XCTAssertEqual(report["schema_version"] as? Int, 2, "schema 2 since the streaming core (outputs[].nodes)")
            XCTAssertNotNil(report["darkroom_version"] as? String)
            XCTAssertEqual((report["config_sha256"] as? String)?.count, 64)
            let input = try XCTUnwrap(report["input"] as? [String: Any])
            XCTAssertEqual(input["path"] as? String, s.path("inbox/\(name)"))
            XCTAssertEqual(input["width"] as? Int, width)
            XCTAssertEqual(input["height"] as? Int, height)
            XCTAssertEqual((input["sha256"] as? String)?.count, 64)
            let outputs = try XCTUnwrap(report["outputs"] as? [[String: Any]])
            XCTAssertEqual(outputs.map { $0["path"] as? String }, [s.path("out/thumbs/\(stem).png"), s.path("out/photos/\(stem).jpg")])
            XCTAssertEqual(outputs.first?["width"] as? Int, 24)
            let sepiaStep = try XCTUnwrap((outputs.last?["chain"] as? [[String: Any]])?.first)
            XCTAssertEqual(sepiaStep["filter"] as? String, "sepia")
            XCTAssertEqual(sepiaStep["random"] as? [String], ["intensity"])
            XCTAssertNotNil(outputs.last?["seed"] as? Int)
            let timings = try XCTUnwrap(report["timings"] as? [String: Any])
            XCTAssertNotNil(ISO8601DateFormatter.withFractions.date(from: timings["queued"] as? String ?? ""), "ISO-8601 dates")
        }

        // Bad files: a failed report each, with the codec's reason, and the file in failed/.
        XCTAssertEqual(s.files(in: "failed"), ["corrupt.jpg", "notes.jpg", "truncated.png"])
        let expected: [String: Set<String>] = [
            "corrupt.jpg": ["corrupt", "truncated"], "truncated.png": ["truncated", "corrupt"], "notes.jpg": ["not_an_image"],
        ]
        for (name, codes) in expected {
            let report = try XCTUnwrap(s.report("reports/\(name).json"), name)
            XCTAssertEqual(report["status"] as? String, "failed", name)
            let error = try XCTUnwrap(report["error"] as? [String: Any], name)
            XCTAssertTrue(codes.contains(error["code"] as? String ?? ""), "\(name): \(error)")
            XCTAssertFalse((error["message"] as? String ?? "").isEmpty)
        }
        // Hidden, partial and non-matching files are left alone; nothing half-written anywhere.
        XCTAssertEqual(s.files(in: "inbox"), [".hidden.png", "partial.png.part", "readme.txt"])
        XCTAssertEqual(s.files(in: "out").filter { $0.contains(".darkroom-") }, [])
        XCTAssertTrue(daemon.log.contains("copied.png → thumbs/copied.png (24×16"), daemon.log)
        XCTAssertTrue(daemon.log.contains("notes.jpg failed: not_an_image"), daemon.log)

        stop(daemon)
    }

    /// A slow writer (a camera over Wi-Fi, a copy over a busy share) appends in bursts, closing
    /// the file after each, with pauses shorter than the settle time: the file is taken only
    /// once complete. Each pause is half the settle time, so a wait that did not restart at each
    /// change would take the file half-written (a truncated PNG) every time.
    func testAFileStillGrowingIsNotTakenUntilItStopsChanging() throws {
        let s = Scratch()
        s.writeConfig(config(s).replacingOccurrences(of: "settle_ms: 100", with: "settle_ms: 400"))
        let daemon = try start(s)
        let png = try picture(width: 300, height: 200, format: .png)
        let pieces = 12
        let step = (png.count + pieces - 1) / pieces
        for start in stride(from: 0, to: png.count, by: step) {
            let fd = open(s.path("inbox/slow.png"), O_WRONLY | O_CREAT | O_APPEND, 0o644)
            _ = png.withUnsafeBytes { write(fd, $0.baseAddress! + start, min(step, png.count - start)) }
            close(fd)
            usleep(200_000)
        }
        XCTAssertTrue(eventually { s.exists("reports/slow.png.json") }, "log:\n\(tail(daemon))")
        let report = try XCTUnwrap(s.report("reports/slow.png.json"))
        XCTAssertEqual(report["status"] as? String, "ok", "taken half-written? \(report["error"] ?? "")")
        let input = try XCTUnwrap(report["input"] as? [String: Any])
        XCTAssertEqual(input["bytes"] as? Int, png.count, "the report describes the whole file")
        // The report is written before the input is moved (the publish order): wait for the move.
        XCTAssertTrue(eventually { s.read("done/slow.png") == png }, "the whole file is moved to done/")
        stop(daemon)
    }

    /// The report's timings describe the job that ran: in order, inside the time the test saw
    /// pass, `finished - started` is `total`, and `total` holds decoding and encoding.
    func testTheReportsTimingsDescribeTheJobThatRan() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        let dropped = Date()
        s.writeAndRename("inbox/timed.jpg", try picture(width: 1600, height: 1200, format: .jpeg))
        XCTAssertTrue(eventually { s.exists("reports/timed.jpg.json") }, "log:\n\(tail(daemon))")
        let seen = Date()
        let timings = try XCTUnwrap(s.report("reports/timed.jpg.json")?["timings"] as? [String: Any])
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = { (key: String) throws -> Date in try XCTUnwrap((timings[key] as? String).flatMap(iso.date(from:)), key) }
        let (queued, started, finished) = (try date("queued"), try date("started"), try date("finished"))
        let seconds = { (key: String) throws -> Double in try XCTUnwrap(timings[key] as? Double, key) }
        let (decode, encode, total) = (try seconds("decode"), try seconds("encode"), try seconds("total"))
        let ms = 0.0015  // the report's times are written to the millisecond
        XCTAssertGreaterThanOrEqual(queued.timeIntervalSince(dropped), -ms, "queued after the file was dropped")
        XCTAssertLessThanOrEqual(queued, started)
        XCTAssertLessThan(started, finished, "a 2-megapixel job takes time")
        XCTAssertLessThanOrEqual(finished.timeIntervalSince(seen), ms, "finished before the report was seen")
        XCTAssertEqual(finished.timeIntervalSince(started), total, accuracy: 2 * ms)
        XCTAssertGreaterThan(decode, 0)
        XCTAssertGreaterThan(encode, 0)
        XCTAssertGreaterThanOrEqual(total, decode + encode)
        // The memory the budget admitted the job by held: never below what the render used.
        for output in try XCTUnwrap(s.report("reports/timed.jpg.json")?["outputs"] as? [[String: Any]]) {
            let peak = try XCTUnwrap(output["peak_pixel_bytes"] as? Int), estimate = try XCTUnwrap(output["estimated_pixel_bytes"] as? Int)
            XCTAssertGreaterThan(peak, 0)
            XCTAssertGreaterThanOrEqual(estimate, peak, "\(output["path"] ?? "")")
        }
        stop(daemon)
    }

    func testFilesPresentAtStartAreProcessedAndARestartDoesNotProcessThemAgain() throws {
        let s = Scratch()
        s.writeConfig(config(s, onSuccess: "keep", workers: 1))
        s.writeInPlace("inbox/early.png", try picture(width: 30, height: 20, format: .png))
        s.writeInPlace("inbox/early2.jpg", try picture(width: 20, height: 30, format: .jpeg))

        var daemon = try start(s)
        XCTAssertTrue(eventually { s.files(in: "reports") == ["early.png.json", "early2.jpg.json"] }, daemon.log)
        XCTAssertEqual(s.files(in: "inbox"), ["early.png", "early2.jpg"], "on_success: keep")
        stop(daemon)
        let reportsBefore = [s.read("reports/early.png.json"), s.read("reports/early2.jpg.json")]
        let outputBefore = try FileManager.default.attributesOfItem(atPath: s.path("out/thumbs/early.png"))[.modificationDate] as? Date

        // Restart: the kept files are recognised by their reports. One worker takes files in
        // order, so once the later marker file is done, the earlier ones were looked at.
        daemon = try start(s)
        s.writeInPlace("inbox/marker.png", try picture(width: 8, height: 8, format: .png))
        XCTAssertTrue(eventually { s.exists("reports/marker.png.json") }, daemon.log)
        XCTAssertEqual([s.read("reports/early.png.json"), s.read("reports/early2.jpg.json")], reportsBefore,
                       "reports untouched: not processed again")
        let outputAfter = try FileManager.default.attributesOfItem(atPath: s.path("out/thumbs/early.png"))[.modificationDate] as? Date
        XCTAssertEqual(outputAfter, outputBefore, "outputs not rewritten")
        stop(daemon)
    }

    func testACrashAfterTheReportOnlyFinishesTheMove() throws {
        let s = Scratch()
        s.writeConfig(config(s, workers: 1))
        let bytes = try picture(width: 16, height: 16, format: .png)
        s.writeInPlace("inbox/a.png", bytes)
        var daemon = try start(s)
        XCTAssertTrue(eventually { s.files(in: "done") == ["a.png"] }, daemon.log)
        stop(daemon)
        let report = s.read("reports/a.png.json")

        // As if killed between writing the report and moving the input: the input is back.
        s.writeInPlace("inbox/a.png", bytes)
        daemon = try start(s)
        // done/a.png already holds exactly these bytes: it is this input, moved before the
        // crash. The input goes, and no identical numbered copy is made.
        XCTAssertTrue(eventually { s.files(in: "inbox").isEmpty }, daemon.log)
        XCTAssertEqual(s.files(in: "done"), ["a.png"])
        XCTAssertEqual(s.read("reports/a.png.json"), report, "the report says it was done; not processed again")
        // The line is logged just after the move: wait for it rather than race it.
        XCTAssertTrue(eventually { daemon.log.contains("already processed") }, daemon.log)
        stop(daemon)
    }

    func testTemporaryFilesLeftByAKilledRunAreRemovedAtStart() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        s.writeInPlace("out/thumbs/.darkroom-a.png.AbC123.tmp", [1, 2, 3])
        s.writeInPlace("reports/.darkroom-a.png.json.XyZ789.tmp", [4])
        s.writeInPlace("out/thumbs/keep.png", [5])
        let daemon = try start(s)
        XCTAssertEqual(s.files(in: "out"), ["thumbs/keep.png"])
        XCTAssertEqual(s.files(in: "reports"), [])
        XCTAssertTrue(daemon.log.contains("removed 1 unfinished temporary file(s)"), daemon.log)
        stop(daemon)
    }

    func testAnInvalidConfigOnSIGHUPIsExplainedAndTheOldOneKept() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        s.writeConfig("workers: many\nwatches: []\n")
        daemon.send(SIGHUP)
        XCTAssertTrue(daemon.waitForNotification("RELOADING=1"), daemon.log)
        XCTAssertTrue(eventually { daemon.log.contains("keeping the running configuration") }, daemon.log)
        XCTAssertTrue(daemon.log.contains("config.yaml:1:"), "diagnostics name file and line; log:\n\(daemon.log)")

        s.writeAndRename("inbox/after.png", try picture(width: 10, height: 10, format: .png))
        XCTAssertTrue(eventually { s.exists("out/thumbs/after.png") }, "still running the old config; log:\n\(daemon.log)")
        stop(daemon)
    }

    func testAValidConfigOnSIGHUPSwapsTheWatches() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        // The new config watches another folder, recursively, with another output.
        s.writeConfig("""
            watches:
              - path: \(s.path("inbox2"))
                recursive: true
                settle_ms: 50
                failed_dir: \(s.path("failed"))
                reports_dir: \(s.path("reports"))
                done_dir: \(s.path("done"))
                outputs:
                  - path: \(s.path("out2/{stem}.png"))
                    chain:
                      - rotate: {angle: 360}
            """)
        daemon.send(SIGHUP)
        XCTAssertTrue(eventually { daemon.log.contains("configuration reloaded") }, daemon.log)
        XCTAssertTrue(daemon.log.contains("360 is read as radians (20626.5°); write 360deg"),
                      "a reload warns as a start does; log:\n\(daemon.log)")
        XCTAssertTrue(daemon.waitForNotification("READY=1"))
        s.makeFolder("inbox2/new/deeper")
        s.writeInPlace("inbox2/new/deeper/n.png", try picture(width: 12, height: 12, format: .png))
        // The input moves just after its report is written: wait for the move too.
        // A recursive watch mirrors subfolders in its outputs too (a template without {dir}).
        XCTAssertTrue(eventually { s.exists("out2/new/deeper/n.png") && s.exists("reports/new/deeper/n.png.json") && !s.files(in: "done").isEmpty },
                      "a file in a folder made after the reload; log:\n\(daemon.log)")
        XCTAssertEqual(s.files(in: "done"), ["new/deeper/n.png"], "done mirrors the relative path")
        s.writeInPlace("inbox/old.png", try picture(width: 12, height: 12, format: .png))
        s.writeInPlace("inbox2/later.png", try picture(width: 12, height: 12, format: .png))
        XCTAssertTrue(eventually { s.exists("out2/later.png") }, daemon.log)
        stop(daemon)
        XCTAssertEqual(s.files(in: "inbox"), ["old.png"], "the old folder is no longer watched")
        XCTAssertFalse(s.exists("out/thumbs/old.png"))
    }
}

/// `darkroom run` exited or never sent READY=1; the test cannot go on.
struct DaemonDidNotStart: Error, CustomStringConvertible {
    var log: String
    var description: String { "darkroom run did not send READY=1; its output:\n\(log)" }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
