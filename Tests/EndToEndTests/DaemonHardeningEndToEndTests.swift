import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// Issue 6, on the real binary: each thing that broke on an operator's worst day, as it broke.
/// Every wait polls with a deadline; nothing asserts how long anything took.
final class DaemonHardeningEndToEndTests: XCTestCase {
    func config(_ s: Scratch, workers: Int = 2, recursive: Bool = false, settleMs: Int = 50,
                limits: String = "", watchExtra: String = "", output: String? = nil,
                chain: String = "resize: { width: 4 }", doneDir: String? = nil) -> String {
        """
        workers: \(workers)
        queue_capacity: 64
        log: { level: debug, format: text }
        \(limits.isEmpty ? "" : "limits: { \(limits) }")
        watches:
          - name: photos
            path: \(s.path("inbox"))
            recursive: \(recursive)
            settle_ms: \(settleMs)
            done_dir: \(doneDir ?? s.path("done"))
            failed_dir: \(s.path("failed"))
            reports_dir: \(s.path("reports"))
        \(watchExtra.isEmpty ? "" : "    " + watchExtra)
            outputs:
              - path: \(output ?? s.path("out/{stem}.png"))
                chain:
                  - \(chain)
        """
    }

    // MARK: 1. One open per job: never a link's target, never blocked by a FIFO

    /// A file with an earlier report (a new version under an old name) is checked against it
    /// first. The old worker `lstat`ed the name, read the report, then opened the name again to
    /// hash and decode it: swapping something else in while the report is read got that opened.
    /// The new worker opens the name once, before it reads the report. The daemon's
    /// "report-check" barrier holds the worker there while the test swaps.
    func swapDuringTheReportCheck(_ s: Scratch, with swap: (String) -> Void) throws -> DaemonProcess {
        s.writeConfig(config(s, workers: 1))
        let barrier = Barrier(s, "report-check")
        let daemon = try start(s, environment: barrier.environment)
        s.writeInPlace("reports/x.png.json", Array("{\"schema_version\": 2, \"status\": \"ok\"}".utf8))
        s.writeAndRename("inbox/x.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(barrier.reached(), "the worker never reached the report check; log:\n\(tail(daemon))")
        s.makeFolder("staging")
        swap(s.path("staging/swapped"))
        XCTAssertEqual(rename(s.path("staging/swapped"), s.path("inbox/x.png")), 0)
        barrier.release()
        return daemon
    }

    func testAFIFOSwappedInWhileTheReportIsCheckedDoesNotBlockTheWorker() throws {
        let s = Scratch()
        let daemon = try swapDuringTheReportCheck(s) { XCTAssertEqual(mkfifo($0, 0o644), 0) }
        // One worker: if it were stuck in open() on the FIFO, nothing else would ever be done.
        s.writeAndRename("inbox/after.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually { s.exists("done/after.png") }, "the worker is blocked; log:\n\(tail(daemon))")
        daemon.send(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(seconds: 20), 0, tail(daemon))
        XCTAssertFalse(daemon.log.contains("abandoned in progress"), tail(daemon))
    }

    func testALinkSwappedInWhileTheReportIsCheckedDoesNotPublishItsTarget() throws {
        let s = Scratch()
        let secret = try picture(width: 9, height: 9, format: .png)
        s.writeInPlace("elsewhere/secret.png", secret)
        let daemon = try swapDuringTheReportCheck(s) { XCTAssertEqual(symlink(s.path("elsewhere/secret.png"), $0), 0) }
        s.writeAndRename("inbox/after.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually { s.exists("done/after.png") }, tail(daemon))
        let input = try XCTUnwrap(s.report("reports/x.png.json")?["input"] as? [String: Any], "x.png is processed")
        XCTAssertNotEqual(input["sha256"] as? String, SHA256Hex.of(secret), "the link's target was published")
        XCTAssertEqual(input["width"] as? Int, 6, "the file that was there when it was taken")
        // done/x.png is the input if it was moved before the swap, never the link that replaced it.
        var st = stat()
        if lstat(s.path("done/x.png"), &st) == 0 {
            XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG, "the link was moved as if it were the input")
        }
        XCTAssertEqual(s.read("elsewhere/secret.png"), secret)
        stop(daemon)
    }

    func testProcessOnAFIFOFailsAtOnceInsteadOfWaitingForAWriter() throws {
        let s = Scratch()
        s.makeFolder("in")
        XCTAssertEqual(mkfifo(s.path("in/pipe.png"), 0o644), 0)
        let result = try darkroomWithin(seconds: 20, ["process", "--chain", "invert", s.path("in/pipe.png"), "-o", s.path("out/")])
        XCTAssertEqual(result?.status, 1, "a FIFO is not an image file; the command must not wait for a writer")
        XCTAssertTrue(result?.stdout.contains("pipe.png failed: io:") == true, result?.stdout ?? "timed out")
        XCTAssertTrue(result?.stdout.contains("not a regular file") == true, result?.stdout ?? "timed out")
    }

    // MARK: 2. Complete means no writer has it open, on every path

    func testAFileHeldOpenByAPausedWriterDuringASIGHUPRescanIsTakenOnlyWhenTheWriterIsDone() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        let bytes = try picture(width: 300, height: 200, format: .png)
        // The writer opens, writes half, and pauses far past settle_ms (50 ms) with the file open.
        let fd = open(s.path("inbox/slow.png"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let half = bytes.count / 2
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, half) }, half)
        // The reload rescans the folder: the half file has been quiet for longer than settle_ms.
        daemon.send(SIGHUP)
        XCTAssertTrue(eventually { daemon.log.contains("configuration reloaded") }, tail(daemon))
        usleep(1_500_000)
        XCTAssertFalse(s.exists("reports/slow.png.json"), "taken while a writer had it open; log:\n\(tail(daemon))")
        XCTAssertFalse(s.exists("failed/slow.png"))
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress! + half, bytes.count - half) }, bytes.count - half)
        close(fd)

        XCTAssertTrue(eventually { s.exists("done/slow.png") }, tail(daemon))
        let report = try XCTUnwrap(s.report("reports/slow.png.json"))
        XCTAssertEqual(report["status"] as? String, "ok", "\(report["error"] ?? "")")
        XCTAssertEqual(s.read("done/slow.png"), bytes, "the whole file, finished where the writer left it")
        XCTAssertEqual(s.files(in: "failed"), [])
        stop(daemon)
    }

    // MARK: 3. Memory budget

    func testAnImageThatCouldNeverFitTheMemoryBudgetFailsAsTooLargeAndTheDaemonGoesOn() throws {
        let s = Scratch()
        s.writeConfig(config(s, limits: "max_memory: 16MiB"))
        let daemon = try start(s)
        // 10000×10000 is exactly the default max_pixels: a few hundred KB of PNG; even streamed,
        // bands 10000 pixels wide need more than the whole 16 MiB budget.
        s.writeAndRename("inbox/bomb.png", try PNGBomb.make(side: 10_000))
        s.writeAndRename("inbox/small.png", try picture(width: 64, height: 64, format: .png))

        XCTAssertTrue(eventually { s.exists("failed/bomb.png") && s.exists("done/small.png") }, tail(daemon))
        let report = try XCTUnwrap(s.report("reports/bomb.png.json"))
        XCTAssertEqual(report["status"] as? String, "failed")
        let error = try XCTUnwrap(report["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "too_large")
        XCTAssertTrue((error["message"] as? String ?? "").contains("limits.max_memory"), "\(error)")
        XCTAssertEqual(s.report("reports/small.png.json")?["status"] as? String, "ok")
        XCTAssertTrue(daemon.log.contains("memory budget for images: 16 MiB (limits.max_memory)"), tail(daemon))
        stop(daemon)
    }

    // MARK: 4. Time budget

    func testAJobPastMaxSecondsIsReportedAsTimeout() throws {
        let s = Scratch()
        s.writeConfig(config(s, limits: "max_seconds: 0.001", chain: "gaussian_blur: { radius: 8 }"))
        let daemon = try start(s)
        s.writeAndRename("inbox/slow.png", try picture(width: 400, height: 300, format: .png))
        XCTAssertTrue(eventually { s.exists("failed/slow.png") }, tail(daemon))
        let error = try XCTUnwrap(s.report("reports/slow.png.json")?["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "timeout")
        XCTAssertTrue((error["message"] as? String ?? "").contains("limits.max_seconds"), "\(error)")
        XCTAssertTrue(daemon.log.contains("slow.png failed: timeout"), tail(daemon))
        stop(daemon)
    }

    // MARK: 5. Watches follow their folders

    func testAWatchedFolderMovedAwayAndMadeAgainIsWatchedAgainWithoutAReload() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        XCTAssertEqual(rename(s.path("inbox"), s.path("inbox-old")), 0)
        XCTAssertTrue(eventually(seconds: 10) { daemon.log.contains("disappeared") }, tail(daemon))
        // What lands in the moved folder is no longer the inbox's.
        s.writeAndRename("inbox-old/stray.png", try picture(width: 6, height: 6, format: .png))
        s.makeFolder("inbox")
        s.writeAndRename("inbox/back.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually(seconds: 15) { s.exists("reports/back.png.json") && s.exists("done/back.png") }, tail(daemon))
        XCTAssertFalse(s.exists("reports/stray.png.json"), "a file in the folder moved away is not an input")
        XCTAssertEqual(s.files(in: "inbox-old"), ["stray.png"])
        stop(daemon)
    }

    func testASubfolderRenamedInsideARecursiveWatchIsWatchedUnderItsNewName() throws {
        let s = Scratch()
        s.writeConfig(config(s, recursive: true))
        s.makeFolder("inbox/before/deep")
        let daemon = try start(s)
        XCTAssertEqual(rename(s.path("inbox/before"), s.path("inbox/after")), 0)
        usleep(300_000)
        s.writeAndRename("inbox/after/x.png", try picture(width: 6, height: 6, format: .png))
        s.writeAndRename("inbox/after/deep/y.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually(seconds: 15) {
            s.exists("reports/after/x.png.json") && s.exists("reports/after/deep/y.png.json") && s.files(in: "inbox").isEmpty
        }, "reports \(s.files(in: "reports")); log:\n\(tail(daemon))")
        XCTAssertEqual(s.files(in: "out"), ["after/deep/y.png", "after/x.png"], "outputs mirror the new names")
        stop(daemon)
    }

    // MARK: 6. Names

    func testLongNamesAreProcessedWithShortTemporaryNamesAndAShortenedReportName() throws {
        let s = Scratch()
        s.writeConfig(config(s, output: s.path("out/{name}.png")))
        let daemon = try start(s)
        let bytes = try picture(width: 6, height: 6, format: .png)
        let name235 = String(repeating: "写", count: 77) + ".png"  // 231 + 4 = 235 bytes
        XCTAssertEqual(name235.utf8.count, 235)
        let name255 = String(repeating: "x", count: 251) + ".png"  // the longest name Linux allows
        s.writeAndRename("inbox/" + name235, bytes)
        s.writeAndRename("inbox/" + name255, bytes)

        XCTAssertTrue(eventually { s.files(in: "inbox").isEmpty && s.files(in: "reports").count == 2 },
                      "reports \(s.files(in: "reports")); log:\n\(tail(daemon))")
        XCTAssertEqual(s.report("reports/\(name235).json")?["status"] as? String, "ok", "240 bytes: the plain name fits")
        let short = try XCTUnwrap(s.files(in: "reports").first { $0.hasPrefix("xxx") })
        XCTAssertLessThanOrEqual(short.utf8.count, 255)
        XCTAssertTrue(short.hasSuffix(".json") && short.contains("~"), short)
        let input = try XCTUnwrap(s.report("reports/" + short)?["input"] as? [String: Any])
        XCTAssertTrue((input["path"] as? String ?? "").hasSuffix("/" + name255), "the report names the input in full")
        XCTAssertEqual(Set(s.files(in: "done")), [name235, name255])
        XCTAssertEqual(s.files(in: "out").count, 2, "outputs too: \(s.files(in: "out"))")
        stop(daemon)
    }

    /// A Latin-1 name (the raw byte 0xE9) and a name holding a backslash, `x`, `E`, `9` as
    /// text: both processed, and logs and reports show them differently (the backslash doubled).
    func testANameThatIsNotUTF8IsProcessedAndShownEscaped() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        let raw: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)  // Latin-1 "café.png"
        let literal = Array("caf\\xE9.png".utf8)  // a backslash, then x E 9, as text
        let bytes = try picture(width: 6, height: 6, format: .png)
        s.makeFolder("staging")
        for (i, name) in [raw, literal].enumerated() {
            _ = FileManager.default.createFile(atPath: s.path("staging/\(i)"), contents: Data(bytes))
            XCTAssertEqual(RawPath.rename(s.path("staging/\(i)"), to: Array(s.path("inbox/").utf8) + name), 0)
        }

        XCTAssertTrue(eventually { RawPath.names(in: s.path("done")).sorted { $0.lexicographicallyPrecedes($1) } == [literal, raw] },
                      tail(daemon))
        XCTAssertEqual(Set(RawPath.names(in: s.path("reports"))), [raw + Array(".json".utf8), literal + Array(".json".utf8)],
                       "the reports keep the names' bytes")
        XCTAssertEqual(Set(RawPath.names(in: s.path("out"))), [raw, literal])
        var shown = [String]()
        for name in [raw, literal] {
            let reportBytes = try XCTUnwrap(RawPath.read(Array(s.path("reports/").utf8) + name + Array(".json".utf8)))
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reportBytes)) as? [String: Any])
            XCTAssertEqual(report["status"] as? String, "ok")
            let input = try XCTUnwrap(report["input"] as? [String: Any])
            shown.append(String((input["path"] as? String ?? "").split(separator: "/").last ?? ""))
        }
        XCTAssertEqual(shown, ["caf\\xE9.png", "caf\\\\xE9.png"], "raw byte as \\xE9, a real backslash doubled")
        XCTAssertTrue(daemon.log.contains(" caf\\xE9.png → "), tail(daemon))
        XCTAssertTrue(daemon.log.contains(" caf\\\\xE9.png → "), tail(daemon))
        stop(daemon)
    }

    func testEscapeSequencesInANameReachTheTextLogEscaped() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        s.writeAndRename("inbox/evil\u{1B}[2J\u{1B}[31mred.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually { s.files(in: "inbox").isEmpty && daemon.log.contains("red.png → ") }, tail(daemon))
        XCTAssertTrue(daemon.log.contains("evil\\x1B[2J\\x1B[31mred.png → "), tail(daemon))
        XCTAssertFalse(daemon.log.utf8.contains(0x1B), "no raw escape byte reaches the log")
        stop(daemon)
    }

    // MARK: 7. Collisions

    func testTwoInputsForOneOutputPathAreBothKeptAndTheReportSaysSo() throws {
        let s = Scratch()
        s.writeConfig(config(s, workers: 1))
        let daemon = try start(s)
        s.writeAndRename("inbox/x.jpg", try picture(width: 10, height: 10, format: .jpeg))
        XCTAssertTrue(eventually { s.exists("done/x.jpg") }, tail(daemon))
        s.writeAndRename("inbox/x.png", try picture(width: 12, height: 12, format: .png))
        XCTAssertTrue(eventually { s.exists("done/x.png") }, tail(daemon))

        XCTAssertEqual(s.files(in: "out"), ["x-1.png", "x.png"], "on_conflict: number by default; nothing overwritten")
        let first = try XCTUnwrap((s.report("reports/x.jpg.json")?["outputs"] as? [[String: Any]])?.first)
        XCTAssertTrue(first["conflict"] is NSNull)
        let second = try XCTUnwrap((s.report("reports/x.png.json")?["outputs"] as? [[String: Any]])?.first)
        XCTAssertEqual(second["path"] as? String, s.path("out/x-1.png"))
        let conflict = try XCTUnwrap(second["conflict"] as? [String: Any])
        XCTAssertEqual(conflict["action"] as? String, "numbered")
        XCTAssertEqual(conflict["other_input"] as? String, "photos:x.jpg")
        let out = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/x.png")))
        XCTAssertEqual(out.height, 4, "x.jpg's output (10×10 → 4×4) is still there")

        // The same input again, changed: it replaces its own earlier output, with no new number.
        s.writeAndRename("inbox/x.png", try picture(width: 20, height: 10, format: .png))
        XCTAssertTrue(eventually { s.exists("done/x-1.png") }, tail(daemon))
        XCTAssertEqual(s.files(in: "out"), ["x-1.png", "x.png"])
        XCTAssertEqual(try ImageCodec.readInfo(try XCTUnwrap(s.read("out/x-1.png"))).height, 2)
        stop(daemon)
    }

    func testOnConflictFailAndRecursiveMirroring() throws {
        let s = Scratch()
        s.writeConfig(config(s, workers: 1, recursive: true, watchExtra: "on_conflict: fail"))
        let daemon = try start(s)
        s.writeAndRename("inbox/x.jpg", try picture(width: 10, height: 10, format: .jpeg))
        XCTAssertTrue(eventually { s.exists("done/x.jpg") }, tail(daemon))
        s.writeAndRename("inbox/x.png", try picture(width: 12, height: 12, format: .png))
        s.makeFolder("inbox/a")
        s.makeFolder("inbox/b")
        s.writeAndRename("inbox/a/y.png", try picture(width: 6, height: 6, format: .png))
        s.writeAndRename("inbox/b/y.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually { s.exists("failed/x.png") && s.exists("done/a/y.png") && s.exists("done/b/y.png") }, tail(daemon))
        let error = try XCTUnwrap(s.report("reports/x.png.json")?["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "output_exists")
        XCTAssertTrue((error["message"] as? String ?? "").contains("photos:x.jpg"), "\(error)")
        XCTAssertEqual(s.files(in: "out"), ["a/y.png", "b/y.png", "x.png"], "a recursive watch mirrors its subfolders")
        stop(daemon)
    }

    // MARK: 8. Moves across file systems survive kill -9

    func testAMoveToAnotherFileSystemCutShortByACrashLeavesNoDuplicate() throws {
        let s = Scratch()
        try mountTmpfs(s.path("done"), options: "size=16m")
        let bytes = try picture(width: 16, height: 16, format: .png)
        // First the report, as a run with on_success: keep leaves it.
        s.writeConfig(config(s, watchExtra: "on_success: keep"))
        s.writeInPlace("inbox/a.png", bytes)
        var daemon = try start(s)
        XCTAssertTrue(eventually { s.exists("reports/a.png.json") }, tail(daemon))
        stop(daemon)
        // As if killed after the copy reached done/ (another file system) and before the
        // input was removed: both are there, identical.
        s.writeInPlace("done/a.png", bytes)
        s.writeConfig(config(s))
        daemon = try start(s)
        XCTAssertTrue(eventually { s.files(in: "inbox").isEmpty }, tail(daemon))
        XCTAssertEqual(s.files(in: "done"), ["a.png"], "the half-finished move is finished, not done again")
        XCTAssertEqual(s.read("done/a.png"), bytes)
        stop(daemon)
    }

    func testRepeatedKillNineDuringMovesToAnotherFileSystemLosesAndDoublesNothing() throws {
        let s = Scratch()
        try mountTmpfs(s.path("done"), options: "size=64m")
        s.writeConfig(config(s))
        let count = 60
        var originals = [String: [UInt8]]()
        s.makeFolder("inbox")
        for i in 0..<count {
            let name = "k\(i < 10 ? "0" : "")\(i).png"
            let bytes = try picture(width: 40 + i, height: 30, format: .png)
            originals[name] = bytes
            s.writeAndRename("inbox/" + name, bytes)
        }
        for round in 0..<5 {
            let daemon = try DaemonProcess(scratch: s, arguments: ["run", "--config", s.path("config.yaml")])
            usleep(useconds_t(150_000 + round * 70_000))
            daemon.send(SIGKILL)
            _ = daemon.waitForExit(seconds: 10)
        }
        let daemon = try start(s)
        XCTAssertTrue(eventually(seconds: 60) { s.files(in: "inbox").isEmpty && s.files(in: "reports").count == count },
                      "inbox \(s.files(in: "inbox").count), reports \(s.files(in: "reports").count); log:\n\(tail(daemon))")
        XCTAssertEqual(s.files(in: "done"), originals.keys.sorted(), "each input once in done/: no numbered copies, no temporaries")
        for (name, bytes) in originals { XCTAssertEqual(s.read("done/" + name), bytes, name) }
        XCTAssertEqual(s.files(in: "failed"), [])
        stop(daemon)
    }

    // MARK: 9. A report that cannot be written is retried

    func testAReportThatCannotBeWrittenIsRetriedUntilItCanAndLoggedOnce() throws {
        let s = Scratch()
        try mountTmpfs(s.path("reports"), options: "size=1m")
        XCTAssertEqual(mount("none", s.path("reports"), nil, UInt(MS_REMOUNT | MS_RDONLY), nil), 0)
        s.writeConfig(config(s))
        let daemon = try start(s)
        s.writeAndRename("inbox/a.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually { daemon.log.contains("a.png: cannot write") }, tail(daemon))
        usleep(2_500_000)  // a few retries meanwhile
        XCTAssertEqual(s.files(in: "inbox"), ["a.png"], "no report, so the input stays")

        XCTAssertEqual(mount("none", s.path("reports"), nil, UInt(MS_REMOUNT), nil), 0, "writable again")
        XCTAssertTrue(eventually(seconds: 90) { s.exists("reports/a.png.json") && s.exists("done/a.png") },
                      "retried without a restart; log:\n\(tail(daemon))")
        XCTAssertEqual(s.report("reports/a.png.json")?["status"] as? String, "ok")
        XCTAssertEqual(daemon.log.components(separatedBy: "a.png: cannot write").count - 1, 1, "said once; log:\n\(tail(daemon))")
        XCTAssertTrue(daemon.log.contains("the report was written after"), tail(daemon))
        stop(daemon)
    }

    // MARK: 11. check points at the byte that is not UTF-8

    func testCheckGivesTheLineAndColumnOfAByteThatIsNotUTF8() throws {
        let s = Scratch()
        let text = Array("watches:\n  - path: ./caf".utf8) + [0xE9] + Array("\n".utf8)
        _ = FileManager.default.createFile(atPath: s.path("latin1.yaml"), contents: Data(text))
        let result = try darkroom(["check", s.path("latin1.yaml")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("latin1.yaml:2:16: byte 0xE9 is not UTF-8 text"), result.stderr)
    }
}

/// `darkroom` with arguments, killed after `seconds`; nil when it had to be killed.
func darkroomWithin(seconds: Double, _ arguments: [String]) throws -> CommandResult? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try DaemonProcess.binaryPath())
    process.arguments = arguments
    let folder = NSTemporaryDirectory() + "darkroom-out-" + UUID().uuidString
    _ = FileManager.default.createFile(atPath: folder, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = FileHandle(forWritingAtPath: folder)
    process.standardOutput = out
    process.standardError = out
    try process.run()
    guard eventually(seconds: seconds, { !process.isRunning }) else {
        kill(process.processIdentifier, SIGKILL)
        return nil
    }
    let text = (try? String(contentsOfFile: folder, encoding: .utf8)) ?? ""
    return CommandResult(status: process.terminationStatus, stdout: text, stderr: text)
}

/// A valid PNG of `side`×`side` black RGBA pixels, a few hundred KB however large: zlib
/// compresses the zero rows about a thousand to one (made by Python's zlib, row by row).
enum PNGBomb {
    static func make(side: Int) throws -> [UInt8] {
        let script = """
            import struct, sys, zlib
            side = int(sys.argv[1])
            def chunk(kind, data):
                body = kind + data
                return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xffffffff)
            z = zlib.compressobj(9)
            row = bytes(1 + 4 * side)
            idat = b"".join(z.compress(row * 100) for _ in range(side // 100)) + z.compress(row * (side % 100)) + z.flush()
            sys.stdout.buffer.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0))
                                    + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(side)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !data.isEmpty else { throw TestEnvironment.unavailable("python3, to make the test PNG") }
        return Array(data)
    }
}

/// File names as bytes, for names that are not UTF-8 (Foundation would mangle them).
enum RawPath {
    static func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    static func rename(_ from: String, to: [UInt8]) -> Int32 { Glibc.rename(from, cString(to)) }

    static func names(in folder: String) -> [[UInt8]] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names = [[UInt8]]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func read(_ path: [UInt8]) -> [UInt8]? {
        let fd = open(cString(path), O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out = [UInt8](), buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return out }
            out += buffer[..<n]
        }
    }
}

/// SHA-256 through `sha256sum`, as an operator would compute it.
enum SHA256Hex {
    static func of(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "darkroom-sha-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }
}
