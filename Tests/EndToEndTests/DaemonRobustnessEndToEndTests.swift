import DarkroomCodecs
import Foundation
import Glibc
import XCTest

/// The daemon under the conditions operators meet: bursts larger than the queue, kept inputs,
/// awkward names and arrivals, folders that vanish, full or read-only disks, a stop while busy.
/// Every wait polls with a deadline; nothing asserts how long anything took.
final class DaemonRobustnessEndToEndTests: XCTestCase {
    func config(_ s: Scratch, onSuccess: String = "move", workers: Int = 2, queue: Int = 64,
                recursive: Bool = false, output: String? = nil, chain: String = "resize: { width: 4 }") -> String {
        """
        workers: \(workers)
        queue_capacity: \(queue)
        log: { level: debug, format: text }
        watches:
          - name: photos
            path: \(s.path("inbox"))
            recursive: \(recursive)
            settle_ms: 50
            on_success: \(onSuccess)
            done_dir: \(s.path("done"))
            failed_dir: \(s.path("failed"))
            reports_dir: \(s.path("reports"))
            outputs:
              - path: \(output ?? s.path("out/{stem}.png"))
                chain:
                  - \(chain)
        """
    }

    func testAFileRewrittenWhileItIsProcessedIsProcessedAgainNotMovedAwayUnseen() throws {
        let s = Scratch()
        s.writeConfig(config(s, chain: "gaussian_blur: { radius: 1 }"))  // keeps the input's size
        s.makeFolder("inbox")
        // The first version's job is held once rendered, before its report: the second version
        // lands while the first is being processed, every time.
        let barrier = Barrier(s, "rendered")
        let daemon = try start(s, environment: barrier.environment)
        let first = try picture(width: 800, height: 600, format: .png)
        let second = try picture(width: 300, height: 200, format: .png)
        s.writeInPlace("inbox/photo.png", first)
        XCTAssertTrue(barrier.reached(), tail(daemon))
        s.writeInPlace("inbox/photo.png", second)
        barrier.release()

        // Whatever the timing, the file that ends in done/ is the second version, and the
        // report that stays describes exactly that content.
        XCTAssertTrue(eventually(seconds: 60) {
            guard s.read("done/photo.png") == second, let report = s.report("reports/photo.png.json"),
                  let input = report["input"] as? [String: Any] else { return false }
            return input["width"] as? Int == 300
        }, tail(daemon))
        XCTAssertFalse(s.exists("inbox/photo.png"))
        XCTAssertFalse(s.exists("done/photo-1.png"), "the first version was never moved: it was replaced in place")
        let out = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/photo.png")))
        XCTAssertEqual([out.width, out.height], [300, 200], "the output is made from the second version")
        stop(daemon)
    }

    func testTheDrainFeedsTheWatchdogAndASecondSIGTERMStopsAtOnceLeavingTheInputInPlace() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        s.makeFolder("inbox")
        // The job is held once rendered and never released: the drain cannot finish by itself.
        let barrier = Barrier(s, "rendered")
        let daemon = try DaemonProcess(scratch: s, arguments: ["run", "--config", s.path("config.yaml")],
                                       environment: barrier.environment.merging(["WATCHDOG_USEC": "400000"]) { a, _ in a })
        XCTAssertTrue(daemon.waitForNotification("READY=1"), daemon.log)
        s.writeInPlace("inbox/slow.png", try picture(width: 200, height: 150, format: .png))
        XCTAssertTrue(barrier.reached(), "taken by a worker; log:\n\(tail(daemon))")
        daemon.send(SIGTERM)
        XCTAssertTrue(daemon.waitForNotification("STOPPING=1"), daemon.log)
        let pingsBefore = daemon.notifications(matching: "WATCHDOG=1")
        XCTAssertTrue(eventually(seconds: 10) { daemon.notifications(matching: "WATCHDOG=1") >= pingsBefore + 2 },
                      "the watchdog is fed while the drain waits; log:\n\(tail(daemon))")
        daemon.send(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(seconds: 20), 0, tail(daemon))
        XCTAssertTrue(daemon.log.contains("received SIGTERM again; stopping now"), tail(daemon))
        XCTAssertTrue(daemon.log.contains("1 of 1 files abandoned in progress"), tail(daemon))
        XCTAssertEqual(s.files(in: "inbox"), ["slow.png"], "an abandoned input stays where it was")
        XCTAssertFalse(s.exists("reports/slow.png.json"))
    }

    func testABurstFarLargerThanTheQueueIsProcessedExactlyOnce() throws {
        let s = Scratch()
        s.writeConfig(config(s, queue: 16))
        let daemon = try start(s)
        let bytes = try picture(width: 6, height: 6, format: .png)
        let count = 3000
        // Staged first, then renamed in as fast as possible: the queue overflows many times over.
        s.makeFolder("staging")
        for i in 0..<count { _ = FileManager.default.createFile(atPath: s.path("staging/f\(i).png"), contents: Data(bytes)) }
        for i in 0..<count { XCTAssertEqual(rename(s.path("staging/f\(i).png"), s.path("inbox/f\(i).png")), 0) }

        // Waited for while reports keep coming (a loaded machine takes minutes), not a fixed time.
        XCTAssertTrue(eventually(whileProgressing: { s.files(in: "reports").count }) {
                          s.files(in: "reports").count == count && s.files(in: "inbox").isEmpty
                      },
                      "\(s.files(in: "reports").count) reports, \(s.files(in: "inbox").count) left; log:\n\(tail(daemon))")
        XCTAssertEqual(Set(s.files(in: "done")), Set((0..<count).map { "f\($0).png" }), "each input moved once, no numbered copies")
        XCTAssertEqual(s.files(in: "out").count, count)
        let log = daemon.log
        XCTAssertFalse(log.contains("already processed"), "nothing was taken twice")
        XCTAssertEqual(log.components(separatedBy: " → out/").count - 1, count, "one log line per file")
        stop(daemon)
    }

    func testKeptInputsBeyondTheQueueDoNotKeepTheOthersWaiting() throws {
        let s = Scratch()
        s.writeConfig(config(s, onSuccess: "keep", workers: 1, queue: 4))
        let bytes = try picture(width: 6, height: 6, format: .png)
        s.makeFolder("inbox")
        for i in 0..<40 { s.writeAndRename("inbox/k\(i < 10 ? "0" : "")\(i).png", bytes) }
        let daemon = try start(s)
        // Rescans must get past the inputs already done and kept in place.
        XCTAssertTrue(eventually(seconds: 30) { s.files(in: "reports").count == 40 },
                      "\(s.files(in: "reports").count) of 40 reports; log:\n\(tail(daemon))")
        XCTAssertEqual(s.files(in: "inbox").count, 40, "on_success: keep")
        stop(daemon)
    }

    func testAwkwardNamesAndArrivalsAreEachProcessedOnce() throws {
        let s = Scratch()
        s.writeConfig(config(s, recursive: true, output: s.path("out/{name}.png")))
        let daemon = try start(s)
        let bytes = try picture(width: 6, height: 6, format: .png)

        let names = ["with space.png", "ünïcødé 写真.png", "new\nline.png"]
        for name in names { s.writeInPlace("inbox/" + name, bytes) }
        // Moved in from another folder (IN_MOVED_TO), and a folder moved in with files already inside.
        s.writeAndRename("inbox/moved.png", bytes)
        s.makeFolder("elsewhere/album/deep")
        s.writeInPlace("elsewhere/album/a.png", bytes)
        s.writeInPlace("elsewhere/album/deep/b.png", bytes)
        XCTAssertEqual(rename(s.path("elsewhere/album"), s.path("inbox/album")), 0)
        // A symbolic link is not an input (its target may be anywhere).
        s.writeInPlace("elsewhere/target.png", bytes)
        XCTAssertEqual(symlink(s.path("elsewhere/target.png"), s.path("inbox/link.png")), 0)

        let expected = (names + ["moved.png", "album/a.png", "album/deep/b.png"]).map { $0 + ".json" }.sorted()
        // Each input moves just after its report is written: wait for the moves too.
        XCTAssertTrue(eventually { s.files(in: "reports") == expected && s.files(in: "inbox") == ["link.png"] },
                      "reports \(s.files(in: "reports")); inbox \(s.files(in: "inbox")); log:\n\(tail(daemon))")

        // The same name again: done/ keeps both, numbered, the earlier one untouched.
        s.writeInPlace("inbox/moved.png", try picture(width: 7, height: 7, format: .png))
        XCTAssertTrue(eventually { s.files(in: "done").contains("moved-1.png") }, "done: \(s.files(in: "done")); log:\n\(tail(daemon))")
        XCTAssertEqual(s.read("done/moved.png"), bytes)
        stop(daemon)
    }

    func testAWatchedFolderThatIsDeletedIsReportedAndWatchedAgainWhenItReturns() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let daemon = try start(s)
        try FileManager.default.removeItem(atPath: s.path("inbox"))
        XCTAssertTrue(eventually(seconds: 10) { daemon.log.contains("disappeared") }, "log:\n\(tail(daemon))")
        s.makeFolder("inbox")
        s.writeAndRename("inbox/back.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually(seconds: 15) { s.exists("reports/back.png.json") }, "log:\n\(tail(daemon))")
        stop(daemon)
    }

    func testAFullOutputDiskFailsTheFileCleanlyAndTheDaemonGoesOn() throws {
        let s = Scratch()
        try mountTmpfs(s.path("out"), options: "size=64k")
        // Fill the disk, so the output's write hits ENOSPC.
        let filler = s.path("out/filler")
        s.writeInPlace("out/filler", [UInt8](repeating: 7, count: 1 << 20))  // stops short at ENOSPC
        XCTAssertEqual(s.read("out/filler")?.count ?? 0 < 1 << 20, true, "the tmpfs is full")
        s.writeConfig(config(s, chain: "resize: { width: 200 }"))
        let daemon = try start(s)
        s.writeAndRename("inbox/big.png", try picture(width: 200, height: 200, format: .png))

        XCTAssertTrue(eventually { s.exists("reports/big.png.json") && s.exists("failed/big.png") }, "log:\n\(tail(daemon))")
        let report = try XCTUnwrap(s.report("reports/big.png.json"))
        XCTAssertEqual(report["status"] as? String, "failed")
        let error = try XCTUnwrap(report["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "write_failed")
        XCTAssertTrue((error["message"] as? String ?? "").contains("No space left"), "\(error)")
        XCTAssertEqual(s.files(in: "out"), ["filler"], "no temporary file left behind")
        XCTAssertTrue(daemon.log.contains("big.png failed: write_failed"), daemon.log)

        // Room again: the next file goes through.
        try FileManager.default.removeItem(atPath: filler)
        s.writeAndRename("inbox/next.png", try picture(width: 20, height: 20, format: .png))
        XCTAssertTrue(eventually { s.exists("out/next.png") }, "log:\n\(tail(daemon))")
        stop(daemon)
    }

    func testAReadOnlyReportsFolderLeavesTheInputForLaterAndIsLogged() throws {
        let s = Scratch()
        try mountTmpfs(s.path("reports"), options: "size=64k")
        XCTAssertEqual(mount("none", s.path("reports"), nil, UInt(MS_REMOUNT | MS_RDONLY), nil), 0)
        s.writeConfig(config(s))
        let daemon = try start(s)
        s.writeAndRename("inbox/a.png", try picture(width: 6, height: 6, format: .png))
        XCTAssertTrue(eventually { daemon.log.contains("a.png: cannot write") }, "log:\n\(tail(daemon))")
        XCTAssertEqual(s.files(in: "inbox"), ["a.png"], "no report, so the input stays to be processed again")
        XCTAssertEqual(s.files(in: "reports"), [])
        stop(daemon)
    }

    func testSIGTERMWhileBusyFinishesTheFilesInFlightAndExitsZero() throws {
        let s = Scratch()
        s.writeConfig(config(s, workers: 2, chain: "gaussian_blur: { radius: 20 }"))
        let daemon = try start(s)
        let bytes = try picture(width: 500, height: 500, format: .png)
        for i in 0..<6 { s.writeAndRename("inbox/slow\(i).png", bytes) }
        // Once the first is done the next ones are being worked on.
        XCTAssertTrue(eventually(seconds: 60) { s.files(in: "reports").count > 0 }, "log:\n\(tail(daemon))")
        daemon.send(SIGTERM)
        daemon.send(SIGTERM)  // an impatient second one changes nothing
        XCTAssertEqual(daemon.waitForExit(seconds: 90), 0, "log:\n\(tail(daemon))")
        XCTAssertTrue(daemon.waitForNotification("STOPPING=1", seconds: 1))
        // Each input is either done (report, output, moved) or untouched in the inbox.
        for i in 0..<6 {
            let name = "slow\(i).png"
            if s.exists("done/" + name) {
                XCTAssertTrue(s.exists("reports/\(name).json") && s.exists("out/slow\(i).png"), name)
            } else {
                XCTAssertTrue(s.exists("inbox/" + name), "\(name) neither done nor left in place")
                XCTAssertFalse(s.exists("reports/\(name).json"), name)
            }
        }
        XCTAssertEqual((s.files(in: "out") + s.files(in: "reports")).filter { $0.hasSuffix(".tmp") }, [])
    }
}
