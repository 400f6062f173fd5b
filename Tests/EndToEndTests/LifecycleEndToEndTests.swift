import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// The job lifecycle as a user sees it — open, already done?, render, publish, report, dispose —
/// and the host around it (reload, drain, systemd), checked the same way against the plain daemon
/// and a cluster node (with a PostgreSQL of the test's own): each test runs its body once per mode.
final class LifecycleEndToEndTests: XCTestCase {
    func testAGoodFileIsPublishedOnceAndABadOneFailsWithItsReport() throws {
        try forEachMode { rig in
            try rig.start()
            rig.drop("good.png", try picture(width: 20, height: 10, format: .png))
            rig.drop("bad.png", Array("not an image at all".utf8))
            XCTAssertTrue(eventually { rig.visible("done") == ["good.png"] && rig.visible("failed") == ["bad.png"] }, rig.diagnosis)
            XCTAssertEqual(rig.visible("out"), ["good.png"])
            XCTAssertEqual(rig.visible("inbox"), [])
            let good = try XCTUnwrap(rig.report("good.png"), rig.diagnosis)
            XCTAssertEqual(good["status"] as? String, "ok")
            XCTAssertEqual(((good["outputs"] as? [[String: Any]])?.first?["width"] as? Int), 8)
            let bad = try XCTUnwrap(rig.report("bad.png"), rig.diagnosis)
            XCTAssertEqual(bad["status"] as? String, "failed")
            XCTAssertNotNil((bad["error"] as? [String: Any])?["code"] as? String, "\(bad)")
            XCTAssertEqual(rig.mode == .cluster, good["node"] as? String == "a", "a cluster's report names its node")
            XCTAssertTrue(rig.log.contains("good.png → out/good.png (8×4"), rig.diagnosis)
            XCTAssertTrue(rig.log.contains("bad.png failed: "), rig.diagnosis)
            try rig.stop()
            XCTAssertTrue(rig.log.contains("stopped: 1 processed, 1 failed"), rig.diagnosis)
        }
    }

    /// A node or daemon killed between the report and the move: whoever meets the input again
    /// finds the report with the same SHA-256 and only finishes the move.
    func testAnInputMetAgainAfterItsReportIsOnlyTidied() throws {
        try forEachMode { rig in
            let bytes = try picture(width: 16, height: 16, format: .png)
            try rig.start()
            rig.drop("a.png", bytes)
            XCTAssertTrue(eventually { rig.visible("done") == ["a.png"] }, rig.diagnosis)
            let report = rig.share.read("reports/a.png.json")
            try rig.stop()

            // As if killed after the report: the input is back (a new file: new inode and times).
            try rig.start()
            rig.drop("a.png", bytes)
            XCTAssertTrue(eventually { rig.visible("inbox").isEmpty && rig.log.contains("a.png was already processed (ok)") },
                          rig.diagnosis)
            XCTAssertEqual(rig.visible("done"), ["a.png"], "no numbered copy of identical bytes")
            XCTAssertEqual(rig.share.read("reports/a.png.json"), report, "not processed again")
            try rig.stop()
        }
    }

    /// SIGHUP: a valid config applies to the files taken from then on, an invalid one is
    /// explained and the running one kept; systemd hears RELOADING=1 and READY=1 again each time.
    func testAReloadAppliesAValidConfigAndRefusesAnInvalidOne() throws {
        try forEachMode { rig in
            try rig.start()
            rig.writeConfig(width: 5)
            let ready = rig.process.notifications(matching: "READY=1")
            rig.process.send(SIGHUP)
            XCTAssertTrue(eventually { rig.log.contains("configuration reloaded from") }, rig.diagnosis)
            XCTAssertTrue(eventually { rig.process.notifications(matching: "READY=1") > ready }, rig.diagnosis)
            rig.drop("after.png", try picture(width: 20, height: 10, format: .png))
            XCTAssertTrue(eventually { rig.visible("done") == ["after.png"] }, rig.diagnosis)
            XCTAssertEqual(((rig.report("after.png")?["outputs"] as? [[String: Any]])?.first?["width"] as? Int), 5)

            rig.share.writeInPlace(rig.configName, Array("workers: many\n".utf8))
            rig.process.send(SIGHUP)
            XCTAssertTrue(eventually { rig.log.contains("keeping the running configuration") }, rig.diagnosis)
            XCTAssertTrue(eventually { rig.process.notifications(matching: "RELOADING=1") == 2 }, rig.diagnosis)
            rig.drop("later.png", try picture(width: 20, height: 10, format: .png))
            XCTAssertTrue(eventually { rig.visible("done").contains("later.png") }, "still running; " + rig.diagnosis)
            try rig.stop()
        }
    }

    /// SIGTERM while a job is held between rendering and publishing: the drain waits for it,
    /// the file is published whole, and the process exits 0 with STOPPING=1.
    func testAStopDrainsTheJobInFlight() throws {
        try forEachMode { rig in
            let barrier = Barrier(rig.share, "rendered")
            try rig.start(environment: barrier.environment)
            rig.drop("slow.png", try picture(width: 20, height: 10, format: .png))
            XCTAssertTrue(barrier.reached(), rig.diagnosis)
            rig.process.send(SIGTERM)
            XCTAssertTrue(eventually { rig.log.contains("finishing the files in progress") }, rig.diagnosis)
            barrier.release()
            XCTAssertEqual(rig.process.waitForExit(), 0, rig.diagnosis)
            XCTAssertTrue(rig.process.waitForNotification("STOPPING=1", seconds: 1), rig.diagnosis)
            XCTAssertEqual(rig.visible("done"), ["slow.png"])
            XCTAssertEqual(rig.visible("out"), ["slow.png"])
            XCTAssertTrue(rig.log.contains("stopped: 1 processed, 0 failed"), rig.diagnosis)
            XCTAssertFalse(rig.log.contains("abandoned in progress"), rig.diagnosis)
        }
    }

    /// A symbolic link dropped in the inbox is not followed: it is left alone, and said so.
    func testASymbolicLinkIsLeftAlone() throws {
        try forEachMode { rig in
            try rig.start()
            rig.share.writeInPlace("elsewhere/target.png", try picture(width: 8, height: 8, format: .png))
            XCTAssertEqual(symlink(rig.share.path("elsewhere/target.png"), rig.share.path("inbox/link.png")), 0)
            rig.drop("real.png", try picture(width: 8, height: 8, format: .png))
            XCTAssertTrue(eventually { rig.visible("done") == ["real.png"] }, rig.diagnosis)
            XCTAssertEqual(rig.visible("inbox"), ["link.png"], "the link stays")
            XCTAssertFalse(rig.share.exists("reports/link.png.json"))
            XCTAssertTrue(rig.share.exists("elsewhere/target.png"), "its target is untouched")
            try rig.stop()
        }
    }

    private func forEachMode(_ body: (LifecycleRig) throws -> Void) throws {
        for mode in LifecycleRig.Mode.allCases {
            let rig = try LifecycleRig(mode)
            defer { rig.kill() }
            try body(rig)
        }
    }
}

/// One `darkroom run` of either mode on a scratch share: the plain daemon, or cluster node `a`
/// with a PostgreSQL of its own. The folders, config and output are the same in both.
final class LifecycleRig {
    enum Mode: String, CaseIterable { case plain, cluster }

    let mode: Mode
    let share = Scratch()
    private let db: PostgresServer?
    private(set) var process: DaemonProcess!
    private var processes = [DaemonProcess]()
    /// Each process's folder (its log and notify socket), kept while the rig lives.
    private var folders = [Scratch]()
    let configName = "darkroom.yaml"

    init(_ mode: Mode) throws {
        self.mode = mode
        db = mode == .cluster ? try PostgresServer() : nil
        share.makeFolder("inbox")
        writeConfig(width: 8)
    }

    /// The config of both modes: one watch, one PNG output `width` pixels wide.
    func writeConfig(width: Int) {
        let cluster = db.map {
            """
            cluster:
              database: \($0.conninfo)
              node: a
              scan_interval: 0.1
              lease: 5

            """
        } ?? ""
        share.writeInPlace(configName, Array("""
            workers: 1
            log: { level: debug, format: text }
            state_file: \(share.path("state.json"))
            \(cluster)watches:
              - name: photos
                path: \(share.path("inbox"))
                settle_ms: 100
                done_dir: \(share.path("done"))
                failed_dir: \(share.path("failed"))
                reports_dir: \(share.path("reports"))
                outputs:
                  - path: \(share.path("out/{stem}.png"))
                    chain:
                      - resize: { width: \(width) }
            """.utf8))
    }

    /// Starts `darkroom run` (again) and waits for its READY=1.
    func start(environment: [String: String] = [:]) throws {
        let folder = Scratch()
        folders.append(folder)
        let started = try DaemonProcess(scratch: folder, arguments: ["run", "--config", share.path(configName)],
                                        environment: environment)
        processes.append(started)
        guard started.waitForNotification("READY=1") else { throw DaemonDidNotStart(log: started.log) }
        process = started
    }

    /// SIGTERM; checks the exit code 0 and STOPPING=1.
    func stop(file: StaticString = #filePath, line: UInt = #line) throws {
        _ = process.notifications(matching: "STOPPING=1")
        process.send(SIGTERM)
        XCTAssertEqual(process.waitForExit(), 0, "\(mode): SIGTERM ends it with 0; \(diagnosis)", file: file, line: line)
        XCTAssertTrue(process.waitForNotification("STOPPING=1", seconds: 1), "\(mode): systemd hears STOPPING=1", file: file, line: line)
    }

    func kill() { for p in processes where p.process.isRunning { p.send(SIGKILL) } }

    /// Writes `bytes` aside and renames them into the inbox as `name`.
    func drop(_ name: String, _ bytes: [UInt8]) { share.writeAndRename("inbox/" + name, bytes) }

    /// Visible files (no temporary ones) below `folder`.
    func visible(_ folder: String) -> [String] { share.files(in: folder).filter { !$0.hasPrefix(".") && !$0.contains("/.") } }

    func report(_ name: String) -> [String: Any]? { share.report("reports/\(name).json") }

    /// Every process's log, in order.
    var log: String { processes.map(\.log).joined() }

    var diagnosis: String {
        "mode \(mode):\n" + log.split(separator: "\n").suffix(25).joined(separator: "\n")
            + (db.map { "\n--- postgres:\n" + $0.log.split(separator: "\n").suffix(5).joined(separator: "\n") } ?? "")
    }
}
