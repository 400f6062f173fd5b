import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// Cluster mode with a real PostgreSQL: several `darkroom run` nodes on this machine share one
/// inbox. File counts and sizes are small and leases short so the whole set stays quick, but
/// each scenario is the real one: real processes, real signals, a real server restart. Every
/// wait polls with a deadline; nothing asserts how long anything took.
final class ClusterEndToEndTests: XCTestCase {
    func testThreeNodesProcessEveryFileOfALargeDropExactlyOnceAndAllTakePart() throws {
        let rig = try ClusterRig(nodes: ["a", "b", "c"])
        for node in ["a", "b", "c"] { try rig.start(node) }
        let names = try rig.drop(2000)
        XCTAssertTrue(eventually(seconds: 240) { rig.visible("done").count == names.count && rig.visible("inbox").isEmpty },
                      rig.diagnosis)
        // What an operator sees: every node alive, the queue drained, and the node's own block.
        let status = try rig.command(["status", "--config", rig.configPath("a")])
        XCTAssertEqual(status.status, 0, status.output)
        for node in ["a", "b", "c"] { XCTAssertTrue(status.output.contains("  \(node) ("), status.output) }
        XCTAssertEqual(status.output.components(separatedBy: "alive, last heartbeat").count - 1, 3, status.output)
        XCTAssertTrue(status.output.contains("watch photos: 0 queued, 0 in flight, 2,000 done (0 failed)"), status.output)
        XCTAssertTrue(status.output.contains("darkroom 0.1.0 is running") || status.output.contains("is running"), status.output)
        let metrics = try String(contentsOfFile: rig.share.path("a.prom"), encoding: .utf8)
        XCTAssertTrue(metrics.contains("darkroom_cluster_database_up{node=\"a\"} 1"), metrics)
        XCTAssertTrue(metrics.contains("# TYPE darkroom_cluster_leases_held gauge"), metrics)
        // (Checked before the stop: as the ingesting node stops, another takes the watch over.)
        // One node ingests at a time: another only after ending a holder that stopped scanning
        // (on a machine loaded enough to stall it for the stuck time), which it logs.
        let ingests = ["a", "b", "c"].map { rig.count("now scans and ingests watch photos", in: $0) }.reduce(0, +)
        let takeovers = ["a", "b", "c"].map { rig.count("its session was ended so that a live node takes the watch over", in: $0) }
            .reduce(0, +)
        XCTAssertEqual(ingests, 1 + takeovers, "one node ingests the watch, another only after a logged takeover: \(rig.diagnosis)")
        rig.stopAll()
        try rig.assertExactlyOnce(names)
        let lines = ["a", "b", "c"].map { rig.count("→ out/", in: $0) }
        XCTAssertEqual(lines.reduce(0, +), names.count, "one log line per file, across the nodes")
        for (node, n) in zip(["a", "b", "c"], lines) {
            XCTAssertGreaterThan(n, 0, "node \(node) took part")
            XCTAssertTrue(rig.log(node).contains("[node=\(node) watch=photos]"), "the log line names the node")
        }
        XCTAssertEqual(try rig.db.sql("SELECT count(DISTINCT node) FROM darkroom_jobs"), "3")
    }

    func testTwoNodesStartingAtOnceOnAnEmptyDatabaseMakeOneSchemaWithoutError() throws {
        let rig = try ClusterRig(nodes: ["a", "b"])
        // Both processes are started before either can have created anything.
        let logs = [Scratch(), Scratch()]  // kept alive: the logs live there
        let a = try DaemonProcess(scratch: logs[0], arguments: ["run", "--config", rig.configPath("a")])
        let b = try DaemonProcess(scratch: logs[1], arguments: ["run", "--config", rig.configPath("b")])
        let names = try rig.drop(20)
        XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count == names.count }, a.log + b.log)
        XCTAssertEqual(try rig.db.sql("SELECT count(*), min(version) FROM darkroom_schema"), "1|1", "one schema, at version 1")
        for node in [a, b] {
            XCTAssertFalse(node.log.contains(" error "), node.log)
            XCTAssertFalse(node.log.contains(" critical "), node.log)
            node.send(SIGTERM)
            XCTAssertEqual(node.waitForExit(), 0)
        }
        XCTAssertEqual([a, b].filter { $0.log.contains("cluster schema migrated from version 0 to 1") }.count, 1,
                       "exactly one node created the schema")
        try rig.assertExactlyOnce(names)
    }

    func testClusterInitRunFromSeveralPlacesAtOnceCreatesTheSchemaOnce() throws {
        let rig = try ClusterRig(nodes: ["a"])
        let logs = (0..<4).map { _ in Scratch() }  // kept alive: the outputs live there
        let runs = try logs.map { try DaemonProcess(scratch: $0, arguments: ["cluster", "init", "--config", rig.configPath("a")]) }
        let outputs = runs.map { run -> String in
            XCTAssertEqual(run.waitForExit(), 0, run.log)
            return run.log
        }
        XCTAssertEqual(outputs.filter { $0.contains("created the cluster schema (version 1)") }.count, 1, outputs.joined())
        XCTAssertEqual(outputs.filter { $0.contains("the cluster schema is up to date (version 1)") }.count, 3, outputs.joined())
        XCTAssertEqual(try rig.db.sql("SELECT count(*) FROM darkroom_schema"), "1")
    }

    func testANodeKilledMidJobThreeTimesLosesNothingAndDoublesNothing() throws {
        var settings = ClusterRig.Settings()
        settings.chain = "gaussian_blur: { radius: 4 }"
        let rig = try ClusterRig(settings: settings, nodes: ["a", "b", "c"])
        for node in ["a", "b", "c"] { try rig.start(node) }
        let names = try rig.drop(90, width: 160, height: 120)
        var killed = [String]()
        for round in 1...3 {
            // A node in the middle of a job (its lease live in the database), killed outright.
            var victim: String?
            XCTAssertTrue(eventually(seconds: 60) {
                victim = try? rig.db.sql("SELECT node FROM darkroom_jobs WHERE state = 'running' AND lease_until > now() ORDER BY id LIMIT 1")
                return victim.map { !$0.isEmpty } ?? false
            }, "round \(round): no job in flight; \(rig.diagnosis)")
            guard let node = victim, let process = rig.nodes[node] else { break }
            process.send(SIGKILL)
            XCTAssertNotNil(process.waitForExit(seconds: 10))
            killed.append(node)
            let doneBefore = rig.visible("done").count
            try rig.start(node)
            XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count >= min(names.count, doneBefore + 10) }, rig.diagnosis)
        }
        XCTAssertEqual(killed.count, 3)
        XCTAssertTrue(eventually(seconds: 120) { rig.visible("done").count == names.count && rig.visible("inbox").isEmpty }, rig.diagnosis)
        rig.stopAll()
        try rig.assertExactlyOnce(names)
        XCTAssertGreaterThanOrEqual(Int(try rig.db.sql("SELECT count(*) FROM darkroom_jobs WHERE attempts > 1")) ?? 0, 1,
                                    "a job a killed node held was claimed again once its lease expired")
    }

    func testANodeFrozenPastItsLeasePublishesNothingForTheJobItLost() throws {
        var settings = ClusterRig.Settings()
        settings.chain = "gaussian_blur: { radius: 10 }"
        settings.lease = 3
        let rig = try ClusterRig(settings: settings, nodes: ["a", "b"])
        // a is held once its outputs are written and frozen there, so it is always mid-job
        // when it stops (a fast machine finished the job before a poll saw it running).
        let barrier = Barrier(rig.share, "rendered")
        let a = try rig.start("a", environment: barrier.environment)
        let names = try rig.drop(1, width: 300, height: 240)
        XCTAssertTrue(barrier.reached(), rig.diagnosis)
        XCTAssertEqual(try rig.db.sql("SELECT node FROM darkroom_jobs WHERE state = 'running'"), "a", rig.diagnosis)
        a.send(SIGSTOP)
        defer { a.send(SIGCONT) }
        barrier.release()  // seen by a only once it runs again
        try rig.start("b")
        let report = "reports/\(names[0]).json"
        XCTAssertTrue(eventually(seconds: 60) { rig.share.report(report)?["node"] as? String == "b" && rig.visible("done").count == 1 },
                      "b takes the job over once a's lease expired; \(rig.diagnosis)")
        let published = try ["out/p0.png", report, "done/p0.png"].map { try XCTUnwrap(inode(rig.share.path($0)), $0) }

        a.send(SIGCONT)
        XCTAssertTrue(eventually(seconds: 30) { rig.log("a").contains("lost its lease") }, rig.diagnosis)
        usleep(1_000_000)  // time for any stray write to land
        XCTAssertEqual(try ["out/p0.png", report, "done/p0.png"].map { try XCTUnwrap(inode(rig.share.path($0)), $0) }, published,
                       "a replaced none of what b published")
        XCTAssertEqual(rig.share.report(report)?["node"] as? String, "b")
        XCTAssertEqual(rig.count("→ out/", in: "a"), 0, "a logged no result")
        rig.stopAll()
        try rig.assertExactlyOnce(names)
        XCTAssertEqual(try rig.db.sql("SELECT node, attempts >= 2 FROM darkroom_jobs"), "b|t", "b finished the job a had claimed")
    }

    func testADatabaseRestartDuringABatchPausesTheNodesAndLosesOrDoublesNothing() throws {
        var settings = ClusterRig.Settings()
        settings.chain = "gaussian_blur: { radius: 2 }"
        settings.lease = 3
        let rig = try ClusterRig(settings: settings, nodes: ["a", "b"])
        for node in ["a", "b"] { try rig.start(node) }
        let names = try rig.drop(120, width: 120, height: 90)
        XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count >= 30 }, rig.diagnosis)
        try rig.db.stop(mode: "fast")
        XCTAssertTrue(eventually(seconds: 30) { ["a", "b"].allSatisfy { rig.log($0).contains("the database is unreachable") } },
                      rig.diagnosis)
        usleep(1_000_000)
        try rig.db.start()
        XCTAssertTrue(eventually(seconds: 120) { rig.visible("done").count == names.count && rig.visible("inbox").isEmpty }, rig.diagnosis)
        XCTAssertTrue(eventually(seconds: 10) { ["a", "b"].allSatisfy { rig.log($0).contains("the database is reachable again") } },
                      rig.diagnosis)
        rig.stopAll()
        try rig.assertExactlyOnce(names)
        for node in ["a", "b"] {
            XCTAssertEqual(rig.count("the database is unreachable", in: node), 1, "the outage is logged once by \(node)")
        }
    }

    func testFilesWrittenSlowlyOverTheShareAreNeverTakenHalfWritten() throws {
        var settings = ClusterRig.Settings()
        settings.settleMilliseconds = 500
        let rig = try ClusterRig(settings: settings, nodes: ["a"])
        try rig.start("a")
        // Each writer reopens the file for every chunk and closes it again, as a network client
        // may: no lease or inotify event tells a complete file from a paused one, only the scans.
        let files = try (0..<3).map { i in ("slow\(i).png", try picture(width: 300 + i, height: 200, format: .png)) }
        let group = DispatchGroup()
        for (name, bytes) in files {
            let path = rig.share.path("inbox/" + name)
            DispatchQueue.global().async(group: group) {
                let chunk = max(1, bytes.count / 8)
                for start in stride(from: 0, to: bytes.count, by: chunk) {
                    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                    _ = bytes[start..<min(bytes.count, start + chunk)].withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                    close(fd)
                    usleep(200_000)  // longer than two scans (0.1 s apart), shorter than settle_ms
                }
            }
        }
        group.wait()
        XCTAssertTrue(eventually(seconds: 60) { rig.visible("done").count == files.count }, rig.diagnosis)
        rig.stopAll()
        for (name, bytes) in files {
            let report = try XCTUnwrap(rig.share.report("reports/\(name).json"))
            XCTAssertEqual(report["status"] as? String, "ok", name)
            XCTAssertEqual((report["input"] as? [String: Any])?["bytes"] as? Int, bytes.count, "\(name) was read whole")
            XCTAssertEqual(rig.share.read("done/" + name), bytes)
        }
        XCTAssertEqual(try rig.db.sql("SELECT count(*) FROM darkroom_jobs"), "3", "no half-written version was ever queued")
    }

    func testTheConnectionStringComesFromASystemdCredentialOrAVariableAndAMissingOneIsExplained() throws {
        let rig = try ClusterRig(nodes: ["a"])
        let config = { (source: String) in
            "cluster: { \(source), node: a }\nwatches: [ { path: \(rig.share.path("inbox")), outputs: [ { path: \"\(rig.share.path("out/{stem}.png"))\" } ] } ]\n"
        }
        rig.share.makeFolder("credentials")
        rig.share.writeInPlace("credentials/darkroom-db", Array((rig.db.conninfo + "\n").utf8))
        rig.share.writeInPlace("credential.yaml", Array(config("database_credential: darkroom-db").utf8))
        rig.share.writeInPlace("env.yaml", Array(config("database_env: DARKROOM_TEST_DB").utf8))

        let check = try rig.command(["check", rig.share.path("credential.yaml")])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertTrue(check.output.contains("worker(s), cluster node a"), check.output)
        let viaCredential = try rig.command(["cluster", "init", "--config", rig.share.path("credential.yaml")],
                                            environment: ["CREDENTIALS_DIRECTORY": rig.share.path("credentials")])
        XCTAssertEqual(viaCredential.status, 0, viaCredential.output)
        XCTAssertTrue(viaCredential.output.contains("created the cluster schema (version 1)"), viaCredential.output)
        let viaVariable = try rig.command(["cluster", "status", "--config", rig.share.path("env.yaml")],
                                          environment: ["DARKROOM_TEST_DB": rig.db.conninfo])
        XCTAssertEqual(viaVariable.status, 0, viaVariable.output)
        XCTAssertTrue(viaVariable.output.contains("cluster schema version 1; 0 node(s)"), viaVariable.output)

        let missing = try rig.command(["run", "--config", rig.share.path("credential.yaml")], environment: ["CREDENTIALS_DIRECTORY": ""])
        XCTAssertEqual(missing.status, 1, missing.output)
        XCTAssertTrue(missing.output.contains("cluster.database_credential: cannot read /darkroom-db"), missing.output)
    }

    func testWhenTheIngestingNodeDiesAnotherTakesTheWatchOver() throws {
        let rig = try ClusterRig(nodes: ["a", "b"])
        try rig.start("a")
        XCTAssertTrue(eventually(seconds: 10) { rig.log("a").contains("now scans and ingests watch photos") }, rig.diagnosis)
        try rig.start("b")
        rig.nodes["a"]?.send(SIGKILL)
        XCTAssertNotNil(rig.nodes["a"]?.waitForExit(seconds: 10))
        let names = try rig.drop(5)
        XCTAssertTrue(eventually(seconds: 30) { rig.visible("done").count == names.count }, rig.diagnosis)
        XCTAssertTrue(rig.log("b").contains("now scans and ingests watch photos"), rig.diagnosis)
        rig.stopAll()
        try rig.assertExactlyOnce(names)
    }

    func testFinishedJobsArePrunedOldLeftoversRemovedAndAJobThatKeptKillingItsNodesFailsAsGaveUp() throws {
        var settings = ClusterRig.Settings()
        settings.maxAttempts = 2
        let rig = try ClusterRig(settings: settings, nodes: ["a"])
        XCTAssertEqual(try rig.command(["cluster", "init", "--config", rig.configPath("a")]).status, 0)
        // Rows as they would stand: two finished long ago and lately, and a file whose job two
        // nodes already died holding (attempts 2 of 2).
        try rig.db.sql("""
            INSERT INTO darkroom_jobs (watch, path, size, mtime_ns, inode, state, status, finished_at) VALUES
              ('photos', 'old.png', 1, 1, 1, 'done', 'ok', now() - interval '8 days'),
              ('photos', 'recent.png', 1, 1, 1, 'done', 'ok', now() - interval '1 day')
            """)
        let bytes = try picture(width: 12, height: 9, format: .png)
        rig.share.writeInPlace("inbox/poison.png", bytes)
        var st = stat()
        XCTAssertEqual(stat(rig.share.path("inbox/poison.png"), &st), 0)
        let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        try rig.db.sql("""
            INSERT INTO darkroom_jobs (watch, path, size, mtime_ns, inode, state, attempts, error)
            VALUES ('photos', 'poison.png', \(bytes.count), \(mtime), \(st.st_ino), 'queued', 2, NULL)
            """)
        // Temporary files of writes cut short: one a killed node left long ago, one that may be
        // another node's write in progress.
        rig.share.makeFolder("out")
        rig.share.writeInPlace("out/.dr-0ld.tmp", [1])
        rig.share.writeInPlace("out/.dr-n3w.tmp", [2])
        var old = [timespec(tv_sec: time(nil) - 7200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7200, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, rig.share.path("out/.dr-0ld.tmp"), &old, 0), 0)
        try rig.start("a")
        XCTAssertTrue(eventually(seconds: 30) { rig.visible("failed") == ["poison.png"] }, rig.diagnosis)
        XCTAssertFalse(rig.share.exists("out/.dr-0ld.tmp"), "a leftover untouched for two hours is removed")
        XCTAssertTrue(rig.share.exists("out/.dr-n3w.tmp"), "a fresh one may be a write in progress elsewhere")
        let report = try XCTUnwrap(rig.share.report("reports/poison.png.json"))
        XCTAssertEqual(report["status"] as? String, "failed")
        XCTAssertEqual((report["error"] as? [String: Any])?["code"] as? String, "gave_up")
        XCTAssertTrue(((report["error"] as? [String: Any])?["message"] as? String ?? "").contains("tried 2 times"), "\(report)")
        XCTAssertTrue(eventually(seconds: 10) { rig.log("a").contains("pruned 1 finished job(s) older than 7 days") }, rig.diagnosis)
        rig.stopAll()
        XCTAssertEqual(try rig.db.sql("SELECT path || ':' || coalesce(status, state) FROM darkroom_jobs ORDER BY path"),
                       "poison.png:failed\nrecent.png:ok", "the old row is pruned, the recent one kept")
    }

    private func inode(_ path: String) -> UInt64? {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_ino) : nil
    }
}
