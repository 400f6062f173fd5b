import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// A cluster node reloads its config on SIGHUP as the plain daemon does, and a node frozen while
/// it scans a watch loses the watch to a live node. Real processes, signals and PostgreSQL, as
/// in ``ClusterEndToEndTests``; waits poll with deadlines, nothing asserts a duration.
final class ClusterReloadAndTakeoverTests: XCTestCase {
    func testSIGHUPReloadsANodesConfigAndAnInvalidOneOrAClusterChangeIsExplainedAndTheOldKept() throws {
        var settings = ClusterRig.Settings()
        let rig = try ClusterRig(settings: settings, nodes: ["a"])
        let a = try rig.start("a")
        _ = try rig.drop(1, prefix: "first")
        XCTAssertTrue(eventually(seconds: 30) { rig.visible("out") == ["first0.png"] }, rig.diagnosis)

        // Invalid: explained, line and column, and the running config kept.
        rig.writeConfig(for: "a", settings)
        let valid = try String(contentsOfFile: rig.configPath("a"), encoding: .utf8)
        rig.share.writeInPlace("a.yaml", Array(valid.replacingOccurrences(of: "workers: 1", with: "workers: many").utf8))
        a.send(SIGHUP)
        XCTAssertTrue(eventually(seconds: 20) { rig.log("a").contains("is not valid; keeping the running configuration") },
                      rig.diagnosis)
        XCTAssertTrue(rig.log("a").contains("a.yaml:1:"), "the error says where: \(rig.diagnosis)")
        // A change to cluster: needs a restart: refused the same way.
        var changedCluster = settings
        changedCluster.lease = 7
        rig.writeConfig(for: "a", changedCluster)
        a.send(SIGHUP)
        XCTAssertTrue(eventually(seconds: 20) { rig.log("a").contains("changes the cluster: section") }, rig.diagnosis)
        _ = try rig.drop(1, prefix: "second")
        XCTAssertTrue(eventually(seconds: 30) { rig.visible("out").contains("second0.png") }, "still the old config: \(rig.diagnosis)")

        // Valid: the next files follow it.
        settings.output = "resized/{stem}.png"
        rig.writeConfig(for: "a", settings)
        a.send(SIGHUP)
        XCTAssertTrue(eventually(seconds: 20) { rig.log("a").contains("configuration reloaded from") }, rig.diagnosis)
        _ = try rig.drop(1, prefix: "third")
        XCTAssertTrue(eventually(seconds: 30) { rig.visible("resized") == ["third0.png"] }, rig.diagnosis)
        XCTAssertEqual(rig.visible("out"), ["first0.png", "second0.png"], "nothing more under the old output path")
        XCTAssertTrue(a.process.isRunning)
        rig.stopAll()
        XCTAssertEqual(Set(rig.visible("done")), ["first0.png", "second0.png", "third0.png"])
    }

    func testANodeFrozenWhileItScansLosesTheWatchToALiveNodeAndNothingIsLostOrDoubled() throws {
        let rig = try ClusterRig(nodes: ["a", "b"])
        let a = try rig.start("a")
        XCTAssertTrue(eventually(seconds: 10) { rig.log("a").contains("now scans and ingests watch photos") }, rig.diagnosis)
        try rig.start("b")
        a.send(SIGSTOP)
        defer { a.send(SIGCONT) }
        let names = try rig.drop(5)
        // b cannot win the lock a's live connection holds: it ends that session once idle past
        // the lease, then scans, and its worker processes the files.
        XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count == names.count }, rig.diagnosis)
        XCTAssertTrue(rig.log("b").contains("held it without scanning"), rig.diagnosis)
        XCTAssertTrue(rig.log("b").contains("now scans and ingests watch photos"), rig.diagnosis)

        a.send(SIGCONT)
        let more = try rig.drop(3, prefix: "q")
        XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count == names.count + more.count }, rig.diagnosis)
        XCTAssertTrue(a.process.isRunning, "the woken node carries on")
        rig.stopAll()
        try rig.assertExactlyOnce(names + more)
    }

    /// inotify is a hint: with scans ten minutes apart, a file written on this machine is still
    /// taken (the first scan ran at start; only the hint can bring the next one forward), and
    /// the scan's settle rule still decides (two sightings `settle_ms` apart).
    func testALocalWriteMakesTheIngestingNodeScanAtOnceWithoutWaitingForTheInterval() throws {
        var settings = ClusterRig.Settings()
        settings.scanInterval = 600
        let rig = try ClusterRig(settings: settings, nodes: ["a"])
        try rig.start("a")
        XCTAssertTrue(eventually(seconds: 10) { rig.log("a").contains("now scans and ingests watch photos") }, rig.diagnosis)
        let names = try rig.drop(3)
        XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count == names.count }, rig.diagnosis)
        XCTAssertTrue(rig.log("a").contains("a local write in photos: scanning now"), rig.diagnosis)
        rig.stopAll()
        try rig.assertExactlyOnce(names)
    }
}
