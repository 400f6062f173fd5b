import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom preview` checks its options, then becomes `darkroom-preview` (the server, an
/// executable of its own so that `darkroom` never links FoundationNetworking), found next to the
/// running binary: the same process, arguments and standard streams.
final class PreviewLauncherTests: XCTestCase {
    func testPreviewBecomesTheServerInTheSameProcess() throws {
        let s = Scratch()
        s.writeInPlace("photo.png", try picture(width: 32, height: 24, format: .png))
        let binary = try DaemonProcess.binaryPath()
        let preview = try RunningPreview(["--port", "0", s.path("photo.png")])
        let process = preview.process
        let line = preview.firstLine
        XCTAssertNotNil(line.range(of: "^darkroom preview: open http://127.0.0.1:[0-9]+/\\?token=[0-9a-f]{64}\n", options: .regularExpression),
                        "printed: \(line)")
        // The process Process started is now the server binary from darkroom's folder.
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/exe")
        let expected = URL(fileURLWithPath: binary).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("darkroom-preview").path
        XCTAssertEqual(exe, expected)
        preview.stop()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, "SIGTERM stops the server cleanly")
    }

    /// A `darkroom` copied alone into a folder: --help and usage errors still come from it; the
    /// page itself fails with the path it looked for and the package that ships it.
    func testWithoutTheServerBinaryPreviewNamesTheExpectedPath() throws {
        let s = Scratch()
        s.makeFolder("bin")
        let lonely = s.path("bin/darkroom")
        try FileManager.default.copyItem(atPath: try DaemonProcess.binaryPath(), toPath: lonely)
        s.writeInPlace("photo.png", try picture(width: 32, height: 24, format: .png))

        let help = try runProgram(lonely, ["preview", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("USAGE: darkroom preview") && help.stdout.contains("--watch <watch>"), help.stdout)

        let usage = try runProgram(lonely, ["preview", "--port", "not-a-port"])
        XCTAssertEqual(usage.status, 64, usage.stderr)
        XCTAssertTrue(usage.stderr.contains("--port"), usage.stderr)

        let run = try runProgram(lonely, ["preview", s.path("photo.png")])
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("darkroom preview: cannot run \(s.path("bin/darkroom-preview")): No such file or directory"), run.stderr)
        XCTAssertTrue(run.stderr.contains("the Debian package darkroom ships both"), run.stderr)
        XCTAssertEqual(run.stdout, "")
    }
}
