import DarkroomTestSupport
import Foundation
import XCTest

/// Helpers for the operations tests: reports written by hand with known contents, commands run
/// under a measuring parent or a pseudo-terminal, and Python's Prometheus parser.
enum ReportFixture {
    /// A report as the daemon writes it, with only what `darkroom report` reads made to vary.
    static func json(watch: String = "photos", input: String, status: String, code: String? = nil,
                     started: String = "2026-11-20T10:00:00.000Z", seconds: Double, outputBytes: [Int] = [],
                     inputBytes: Int = 1000) -> String {
        let error = code.map { "{\"code\": \"\($0)\", \"message\": \"the \($0) message\"}" } ?? "null"
        let outputs = outputBytes.enumerated().map { i, bytes in
            """
            {"path": "/out/\(i).jpg", "format": "jpeg", "width": 10, "height": 10, "bytes": \(bytes), "seed": 1,
             "chain": [{"filter": "resize", "parameters": {"width": 10}, "random": []}], "stages": [{"filters": ["resize"], "seconds": 0.01}]}
            """
        }.joined(separator: ",")
        return """
            {"schema_version": 1, "watch": "\(watch)", "status": "\(status)", "error": \(error),
             "input": {"path": "\(input)", "bytes": \(inputBytes), "sha256": null, "format": "jpeg", "width": 10, "height": 10,
                       "color_space": "srgb", "orientation": 1, "shrink_on_load": 1},
             "outputs": [\(outputs)],
             "timings": {"queued": "\(started)", "started": "\(started)", "finished": "\(finish(started, seconds))",
                         "decode": 0.01, "encode": 0.01, "total": \(seconds)},
             "darkroom_version": "0.1.0", "config_sha256": null}

            """
    }

    /// `started` plus `seconds`, in the reports' format.
    static func finish(_ started: String, _ seconds: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: f.date(from: started)!.addingTimeInterval(seconds))
    }
}

/// `darkroom report ARGUMENTS --json` parsed as `jq` would read it; fails the test on a
/// non-zero exit.
func reportSummary(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let result = try darkroom(["report"] + arguments + ["--json"])
    XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout,
                         file: file, line: line)
}

/// Runs `darkroom arguments` as the only child of a fresh `python3`, which reports the child's
/// peak resident set size (getrusage of its children), so no earlier child of this test
/// process can inflate the figure. The child's stdout is passed through; the figure comes last.
func darkroomPeakRSS(_ arguments: [String]) throws -> (result: CommandResult, peakKiB: Int) {
    let script = """
        import resource, subprocess, sys
        r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        sys.stderr.write(r.stderr.decode())
        sys.stdout.write(r.stdout.decode())
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(r.returncode)
        """
    var result = try python(script, arguments: [try DaemonProcess.binaryPath()] + arguments)
    var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    while lines.last == "" { lines.removeLast() }
    let peak = lines.popLast().flatMap { Int($0) } ?? -1
    result.stdout = lines.joined(separator: "\n")
    return (result, peak)
}

/// Runs `script` with a python3 that can import `module` (Debian's /usr/bin/python3 has
/// prometheus_client from python3-prometheus-client, which scripts/install-deps.sh installs; the
/// first python3 on PATH may be another, such as a pyenv one, without it).
func python(_ script: String, arguments: [String] = [], requiring module: String? = nil) throws -> CommandResult {
    var interpreter = ["/usr/bin/env", "python3"]
    if let module {
        let candidates = [["/usr/bin/python3"], ["/usr/bin/env", "python3"]]
        guard let found = try candidates.first(where: { c in
            try FileManager.default.isExecutableFile(atPath: c[0]) && (runProgram(c[0], Array(c.dropFirst()) + ["-c", "import \(module)"])).status == 0
        }) else {
            throw TestEnvironment.unavailable("a python3 with \(module) (scripts/install-deps.sh installs python3-prometheus-client)")
        }
        interpreter = found
    }
    return try runProgram(interpreter[0], Array(interpreter.dropFirst()) + ["-c", script] + arguments)
}

/// Runs a program to its end, collecting its output.
func runProgram(_ executable: String, _ arguments: [String]) throws -> CommandResult {
    let result = try ToolProcess.capture(executable, arguments)
    return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
}
