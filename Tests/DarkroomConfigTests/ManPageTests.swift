import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomConfig

/// darkroom.yaml(5), the config's man page (packaging/darkroom.yaml.5, written by hand): it
/// renders as man renders it without a single groff warning, and it documents every key the
/// decoder accepts, so a new key cannot ship undocumented.
final class ManPageTests: XCTestCase {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../packaging/darkroom.yaml.5").standardized.path

    func testItRendersWithoutWarnings() throws {
        let groff = try run("groff", package: "groff-base", ["-man", "-Tutf8", "-ww", "-P-c", Self.page])
        XCTAssertEqual(groff.status, 0)
        XCTAssertEqual(groff.stderr, "", "groff -ww warns about the page")
        XCTAssertTrue(groff.stdout.hasPrefix("DARKROOM.YAML(5)"), String(groff.stdout.prefix(200)))
        // What `man 5 darkroom.yaml` runs once the page is installed.
        let man = try run("man", package: "man-db", ["--warnings", "-l", Self.page], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "", "man --warnings -l")
        XCTAssertTrue(man.stdout.contains("max_file_bytes"), String(man.stdout.prefix(400)))
    }

    func testItDocumentsEveryKeyTheDecoderAccepts() throws {
        // Without SGR escapes grotty writes bold as overstrikes: "w\bw" for a bold w.
        let rendered = try run("groff", package: "groff-base", ["-man", "-Tutf8", "-P-c", Self.page]).stdout
        func bold(_ word: String) -> String { word.map { "\($0)\u{8}\($0)" }.joined() }
        let keys = ConfigDecoder.topLevelKeys + ConfigDecoder.limitsKeys + ConfigDecoder.logKeys
            + ConfigDecoder.watchKeys + ConfigDecoder.outputKeys + ConfigDecoder.clusterKeys
        XCTAssertGreaterThan(keys.count, 40)
        let missing = keys.filter { !rendered.contains(bold($0)) }
        XCTAssertEqual(missing, [], "keys the config accepts that darkroom.yaml(5) does not name in bold")
    }

    private func run(_ tool: String, package: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess.Captured {
        guard let path = ToolProcess.locate(tool) else {
            throw TestEnvironment.unavailable("\(tool) is not installed: install \(package) (scripts/install-deps.sh)")
        }
        return try ToolProcess.capture(path, arguments, environment: environment)
    }
}
