import DarkroomCodecs
import Foundation
import Glibc
import XCTest

/// What an operator reads of a running daemon: `darkroom status` (with files in flight, after a
/// clean stop, after a crash, with no daemon), the metrics file through Prometheus's own parser,
/// and `darkroom process --jobs` and its progress line.
final class OperationsEndToEndTests: XCTestCase {
    func config(_ s: Scratch, workers: Int = 1, chain: String = "[invert]", extra: String = "") -> String {
        """
        workers: \(workers)
        state_file: \(s.path("run/status.json"))
        metrics_file: \(s.path("metrics/darkroom.prom"))
        \(extra)
        watches:
          - name: photos
            path: \(s.path("inbox"))
            settle_ms: 100
            done_dir: \(s.path("done"))
            failed_dir: \(s.path("failed"))
            reports_dir: \(s.path("reports"))
            outputs:
              - path: \(s.path("out/{stem}.png"))
                chain: \(chain)
        """
    }

    func statusJSON(_ s: Scratch) throws -> (CommandResult, [String: Any]?) {
        let result = try darkroom(["status", "--config", s.path("config.yaml"), "--json"])
        return (result, try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func testStatusShowsFilesInFlightThenSaysTheDaemonStopped() throws {
        let s = Scratch()
        // A filter slow enough (in a debug build, seconds) for a file to be seen in flight: a
        // bilateral filter weighs 169 neighbours a pixel in Swift (the Gaussian blur, in C now,
        // takes 0.1 s).
        s.writeConfig(config(s, chain: "[{noise_reduction: {radius: 3}}]"))
        let daemon = try start(s)
        let picture = try picture(width: 400, height: 300, format: .png)
        for name in ["a.png", "b.png", "c.png"] { s.writeAndRename("inbox/" + name, picture) }

        var seen: [String: Any]?
        XCTAssertTrue(eventually(seconds: 60) {
            guard let (result, state) = try? statusJSON(s), result.status == 0, let state,
                  let watch = (state["watches"] as? [[String: Any]])?.first,
                  let inFlight = watch["in_flight"] as? [[String: Any]], inFlight.count == 1 else { return false }
            seen = state
            return true
        }, "no file was seen in flight; log:\n\(daemon.log)")
        let watch = try XCTUnwrap((seen?["watches"] as? [[String: Any]])?.first)
        let path = try XCTUnwrap((watch["in_flight"] as? [[String: Any]])?.first?["path"] as? String)
        XCTAssertTrue(["a.png", "b.png", "c.png"].map { s.path("inbox/" + $0) }.contains(path), path)
        XCTAssertEqual(seen?["running"] as? Bool, true)
        XCTAssertEqual(seen?["pid"] as? Int, Int(daemon.process.processIdentifier))

        let text = try darkroom(["status", "--config", s.path("config.yaml")])
        XCTAssertEqual(text.status, 0, text.stderr)
        for expected in ["is running (pid \(daemon.process.processIdentifier))", "config \(s.path("config.yaml"))",
                         "photos  \(s.path("inbox"))", "last hour:"] {
            XCTAssertTrue(text.stdout.contains(expected), "missing \"\(expected)\":\n\(text.stdout)")
        }

        s.writeInPlace("inbox/bad.png", Array("not a picture".utf8))
        XCTAssertTrue(eventually(seconds: 90) { s.files(in: "reports").count == 4 && s.files(in: "inbox").isEmpty }, daemon.log)
        XCTAssertTrue(eventually {
            let watch = ((try? statusJSON(s))?.1?["watches"] as? [[String: Any]])?.first
            return watch?["done_last_hour"] as? Int == 3 && watch?["failed_last_hour"] as? Int == 1
        }, daemon.log)
        let final = try darkroom(["status", "--config", s.path("config.yaml")])
        XCTAssertTrue(final.stdout.contains("last hour: 3 done, 1 failed"), final.stdout)
        XCTAssertTrue(final.stdout.contains("bad.png: not_an_image:"), final.stdout)

        daemon.send(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0, daemon.log)
        let stopped = try darkroom(["status", "--config", s.path("config.yaml")])
        XCTAssertEqual(stopped.status, 3, "not running: exit 3, as systemctl status")
        XCTAssertTrue(stopped.stdout.contains("darkroom is NOT running: it stopped cleanly"), stopped.stdout)
    }

    func testStatusSaysWhenNoDaemonRunsOrItWasKilled() throws {
        let s = Scratch()
        s.writeConfig(config(s))
        let none = try darkroom(["status", "--config", s.path("config.yaml")])
        XCTAssertEqual(none.status, 3)
        XCTAssertTrue(none.stderr.contains("darkroom is not running: no state file at \(s.path("run/status.json"))"), none.stderr)

        let daemon = try start(s)
        XCTAssertTrue(eventually { (try? statusJSON(s))?.0.status == 0 }, daemon.log)
        daemon.send(SIGKILL)
        XCTAssertNotNil(daemon.waitForExit())
        let killed = try darkroom(["status", "--config", s.path("config.yaml")])
        XCTAssertEqual(killed.status, 3)
        XCTAssertTrue(killed.stdout.contains("is NOT running: pid \(daemon.process.processIdentifier) is gone without a clean stop"), killed.stdout)
        let (_, state) = try statusJSON(s)
        XCTAssertEqual(state?["running"] as? Bool, false)
    }

    /// The metrics file, read by the Prometheus client library's own parser.
    func testMetricsFileParsesAndCountsWhatWasDropped() throws {
        let s = Scratch()
        s.writeConfig(config(s, workers: 2))
        let daemon = try start(s)
        XCTAssertTrue(eventually { s.exists("metrics/darkroom.prom") }, "written at start; log:\n\(daemon.log)")
        let png = try picture(width: 40, height: 30, format: .png)
        s.writeAndRename("inbox/one.png", png)
        s.writeAndRename("inbox/two.png", png)
        s.writeInPlace("inbox/three.png", Array(png.prefix(png.count / 2)))
        XCTAssertTrue(eventually { s.files(in: "reports").count == 3 && s.files(in: "inbox").isEmpty }, daemon.log)
        // A valid reload and an invalid one.
        daemon.send(SIGHUP)
        XCTAssertTrue(eventually { daemon.log.contains("configuration reloaded") }, daemon.log)
        let good = try String(contentsOfFile: s.path("config.yaml"), encoding: .utf8)
        s.writeConfig(good + "\nworkers: many\n")
        daemon.send(SIGHUP)
        XCTAssertTrue(eventually { daemon.log.contains("is not valid; keeping the running configuration") }, daemon.log)
        daemon.send(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0, daemon.log)

        let parsed = try python("""
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            out = {}
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                for sample in family.samples:
                    if sample.timestamp is not None:
                        sys.exit("sample with a timestamp: %s" % (sample,))
                    key = sample.name + json.dumps(sample.labels, sort_keys=True)
                    out[key] = sample.value
                out["type:" + family.name] = family.type
            print(json.dumps(out))
            """, arguments: [s.path("metrics/darkroom.prom")], requiring: "prometheus_client")
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        let m = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any], parsed.stdout)
        func value(_ name: String, _ labels: String = "{}") -> Double? { m[name + labels] as? Double }
        XCTAssertEqual(value("darkroom_files_total", #"{"status": "ok", "watch": "photos"}"#), 2, parsed.stdout)
        XCTAssertEqual(value("darkroom_files_total", #"{"status": "failed", "watch": "photos"}"#), 1)
        XCTAssertEqual(value("darkroom_files_total", #"{"status": "skipped", "watch": "photos"}"#), 0)
        XCTAssertEqual(value("darkroom_file_seconds_count", #"{"watch": "photos"}"#), 3)
        XCTAssertEqual(value("darkroom_file_seconds_bucket", #"{"le": "+Inf", "watch": "photos"}"#), 3)
        XCTAssertEqual(value("darkroom_queue_depth", #"{"watch": "photos"}"#), 0)
        XCTAssertEqual(value("darkroom_inflight_files"), 0)
        XCTAssertEqual(value("darkroom_config_reloads_total", #"{"result": "success"}"#), 1)
        XCTAssertEqual(value("darkroom_config_reloads_total", #"{"result": "failure"}"#), 1)
        let lastSuccess = try XCTUnwrap(value("darkroom_last_success_timestamp_seconds", #"{"watch": "photos"}"#))
        XCTAssertEqual(lastSuccess, Date().timeIntervalSince1970, accuracy: 3600)
        XCTAssertEqual(m["type:darkroom_file_seconds"] as? String, "histogram")
        XCTAssertEqual(m["type:darkroom_files"] as? String, "counter")
        XCTAssertFalse(s.files(in: "metrics").contains { $0 != "darkroom.prom" }, "no temporary file left behind")
    }

    func testProcessWithTwoJobsWritesWhatOneJobWrites() throws {
        let s = Scratch()
        var inputs = [String]()
        for (i, size) in [(40, 30), (64, 20), (25, 25), (50, 70), (33, 44)].enumerated() {
            let name = "in/p\(i)." + (i % 2 == 0 ? "png" : "jpg")
            s.writeInPlace(name, try picture(width: size.0, height: size.1, format: i % 2 == 0 ? .png : .jpeg))
            inputs.append(s.path(name))
        }
        let chain = "resize width=20 | sepia intensity=random | transform rotate=-30deg canvas=grow"
        for jobs in ["1", "2"] {
            let result = try darkroom(["process", "--jobs", jobs, "--seed", "42", "--chain", chain] + inputs
                                      + ["-o", s.path("out\(jobs)"), "--reports", s.path("reports\(jobs)")])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout.split(separator: "\n").count, inputs.count, result.stdout)
            XCTAssertFalse(result.stderr.contains("\r"), "no progress line when stderr is not a terminal: \(result.stderr)")
        }
        XCTAssertEqual(s.files(in: "out1").count, inputs.count)
        XCTAssertEqual(s.files(in: "out1"), s.files(in: "out2"))
        for name in s.files(in: "out1") {
            XCTAssertEqual(s.read("out1/" + name), s.read("out2/" + name), name)
        }
    }

    func testProgressLineOnATerminal() throws {
        let s = Scratch()
        var inputs = [String]()
        for i in 0..<3 {
            s.writeInPlace("in/p\(i).png", try picture(width: 30, height: 20, format: .png))
            inputs.append(s.path("in/p\(i).png"))
        }
        // `script` runs the command on a pseudo-terminal and copies what it shows.
        let command = ([try DaemonProcess.binaryPath(), "process", "--jobs", "2", "--chain", "invert"] + inputs + ["-o", s.path("out")])
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let shown = try runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        XCTAssertEqual(shown.status, 0, shown.stdout + shown.stderr)
        XCTAssertTrue(shown.stdout.contains("\r\u{1B}[K[0/3]"), shown.stdout.debugDescription)
        XCTAssertTrue(shown.stdout.contains("3/3 files in"), shown.stdout.debugDescription)
        for i in 0..<3 { XCTAssertTrue(shown.stdout.contains("p\(i).png → "), shown.stdout) }
    }
}
