import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// Several `darkroom run` processes on this one machine standing in for machines: each node
/// has its own config (node name, state file) and log folder, all share one inbox, output,
/// done, failed and reports folder, and one PostgreSQL server of the test's own.
final class ClusterRig {
    let db: PostgresServer
    let share = Scratch()
    /// One scratch folder per process of each node, for its log (``DaemonProcess`` writes
    /// `daemon.log` there, and a restarted node must not truncate its predecessor's).
    private var logFolders = [String: [Scratch]]()
    private(set) var nodes = [String: DaemonProcess]()
    /// Processes of nodes that were killed or restarted: their logs still count.
    private(set) var retired = [DaemonProcess]()

    struct Settings {
        var workers = 1
        var lease = 2.0
        var scanInterval = 0.1
        var settleMilliseconds = 100
        var chain = "resize: { width: 8 }"
        var maxAttempts = 5
        /// Where the output goes, below the share.
        var output = "out/{stem}.png"
    }

    init(settings: Settings = Settings(), nodes names: [String]) throws {
        db = try PostgresServer()
        share.makeFolder("inbox")
        for name in names { writeConfig(for: name, settings) }
    }

    func configPath(_ node: String) -> String { share.path("\(node).yaml") }

    func writeConfig(for node: String, _ s: Settings) {
        let yaml = """
            workers: \(s.workers)
            log: { level: debug, format: text }
            state_file: \(share.path("\(node).status.json"))
            metrics_file: \(share.path("\(node).prom"))
            cluster:
              database: \(db.conninfo)
              node: \(node)
              scan_interval: \(s.scanInterval)
              lease: \(s.lease)
              max_attempts: \(s.maxAttempts)
            watches:
              - name: photos
                path: \(share.path("inbox"))
                settle_ms: \(s.settleMilliseconds)
                done_dir: \(share.path("done"))
                failed_dir: \(share.path("failed"))
                reports_dir: \(share.path("reports"))
                outputs:
                  - path: \(share.path(s.output))
                    chain:
                      - \(s.chain)
            """
        share.writeInPlace("\(node).yaml", Array(yaml.utf8))
    }

    /// Starts `node` (again, after a kill) and waits for its READY=1.
    @discardableResult
    func start(_ node: String, environment: [String: String] = [:]) throws -> DaemonProcess {
        if let old = nodes[node] { retired.append(old) }
        let folder = Scratch()
        logFolders[node, default: []].append(folder)
        let process = try DaemonProcess(scratch: folder, arguments: ["run", "--config", configPath(node)], environment: environment)
        guard process.waitForNotification("READY=1") else { throw DaemonDidNotStart(log: process.log) }
        nodes[node] = process
        return process
    }

    /// Runs a `darkroom` command to its end; returns its exit status and what it printed.
    func command(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32?, output: String) {
        let folder = Scratch()
        let process = try DaemonProcess(scratch: folder, arguments: arguments, environment: environment)
        let status = process.waitForExit(seconds: 30)
        return (status, process.log)
    }

    /// Every log line of `node` (all its processes, killed ones included).
    func log(_ node: String) -> String {
        (logFolders[node] ?? []).map { (try? String(contentsOfFile: $0.path("daemon.log"), encoding: .utf8)) ?? "" }.joined()
    }

    /// Lines of `node`'s log that contain `text`.
    func count(_ text: String, in node: String) -> Int { log(node).components(separatedBy: "\n").filter { $0.contains(text) }.count }

    /// The last lines of every node's log and the server's, to explain a failure.
    var diagnosis: String {
        nodes.keys.sorted().map { "--- \($0):\n" + log($0).split(separator: "\n").suffix(15).joined(separator: "\n") }.joined(separator: "\n")
            + "\n--- postgres:\n" + db.log.split(separator: "\n").suffix(10).joined(separator: "\n")
    }

    /// Stops every node with SIGTERM and checks each exits 0.
    func stopAll(file: StaticString = #filePath, line: UInt = #line) {
        for (name, node) in nodes.sorted(by: { $0.key < $1.key }) where node.process.isRunning {
            node.send(SIGTERM)
            XCTAssertEqual(node.waitForExit(), 0, "node \(name) stops cleanly", file: file, line: line)
        }
    }

    /// Drops `count` distinct small PNGs at once (written aside, renamed in); returns their names.
    func drop(_ count: Int, width: Int = 6, height: Int = 5, prefix: String = "p") throws -> [String] {
        share.makeFolder("staging")
        var names = [String]()
        for i in 0..<count {
            // Distinct content for each file: its size varies.
            let bytes = try picture(width: width + i % 61, height: height + i / 61, format: .png)
            let name = "\(prefix)\(i).png"
            _ = FileManager.default.createFile(atPath: share.path("staging/" + name), contents: Data(bytes))
            names.append(name)
        }
        for name in names { precondition(rename(share.path("staging/" + name), share.path("inbox/" + name)) == 0) }
        return names
    }

    /// Visible files (no temporary ones) below `folder` of the share.
    func visible(_ folder: String) -> [String] { share.files(in: folder).filter { !$0.hasPrefix(".") && !$0.contains("/.") } }

    /// Checks that each of `names` was processed exactly once: one report saying ok, one output,
    /// one entry in done/, nothing left in the inbox, one finished row per file.
    func assertExactlyOnce(_ names: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let stems = Set(names.map { String($0.dropLast(4)) })
        XCTAssertEqual(Set(visible("out")), Set(stems.map { $0 + ".png" }), "one output per file, none numbered", file: file, line: line)
        XCTAssertEqual(Set(visible("done")), Set(names), "each input once in done/", file: file, line: line)
        XCTAssertEqual(Set(visible("reports")), Set(names.map { $0 + ".json" }), "one report per file", file: file, line: line)
        XCTAssertEqual(visible("inbox"), [], "nothing left in the inbox", file: file, line: line)
        XCTAssertEqual(visible("failed"), [], "nothing failed", file: file, line: line)
        for name in names {
            let report = try XCTUnwrap(share.report("reports/\(name).json"), file: file, line: line)
            XCTAssertEqual(report["status"] as? String, "ok", name, file: file, line: line)
            XCTAssertNotNil(report["node"] as? String, "the report names its node", file: file, line: line)
        }
        let rows = try db.sql("SELECT count(*), count(DISTINCT path), count(*) FILTER (WHERE state = 'done' AND status = 'ok') FROM darkroom_jobs")
        XCTAssertEqual(rows, "\(names.count)|\(names.count)|\(names.count)", "one finished job per file", file: file, line: line)
    }
}
