import DarkroomCodecs
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

    /// The page's default `include` and its `format` values are the table's (``ImageFormat``),
    /// so a new format cannot ship with the page naming the old list.
    func testItListsTheFormatsOfTheTable() throws {
        let plain = try run("groff", package: "groff-base", ["-man", "-Tutf8", "-P-c", Self.page]).stdout
            .replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        /// The words matching `pattern` between `end`'s first occurrence and the last `start` before it.
        func words(after start: String, until end: String, matching pattern: String) throws -> [String] {
            let to = try XCTUnwrap(plain.range(of: end), end)
            let from = try XCTUnwrap(plain.range(of: start, options: .backwards, range: plain.startIndex..<to.lowerBound), start)
            let text = String(plain[from.upperBound..<to.lowerBound])
            let regex = try NSRegularExpression(pattern: pattern)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { (text as NSString).substring(with: $0.range) }
        }
        let include = try words(after: "include File-name globs, case-insensitive. Default:", until: "A file is read by its content",
                                matching: #"\*\.[a-z0-9]+"#)
        XCTAssertEqual(include, WatchConfig.defaultInclude, "the default include of darkroom.yaml(5)")
        XCTAssertTrue(include.contains("*.jxl") && include.contains("*.dng") && include.contains("*.svgz"), "\(include)")
        let formats = try words(after: " format ", until: "; default: from the path's extension", matching: #"[a-z]+"#)
        XCTAssertEqual(formats.filter { $0 != "or" }, ImageFormat.writableFormats.map(\.rawValue), "format's values in darkroom.yaml(5)")
        let extensions = try words(after: "default: from the path's extension (", until: "). chain ", matching: #"\.[a-z]+"#)
        XCTAssertEqual(extensions, ImageFormat.writableFormats.map { "." + $0.fileExtension })
    }

    private func run(_ tool: String, package: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolProcess.Captured {
        guard let path = ToolProcess.locate(tool) else {
            throw TestEnvironment.unavailable("\(tool) is not installed: install \(package) (scripts/install-deps.sh)")
        }
        return try ToolProcess.capture(path, arguments, environment: environment)
    }
}
