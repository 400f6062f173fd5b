import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import XCTest

/// `docs/output-options.md` and `docs/error-codes.md` are what `darkroom formats --markdown` and
/// `darkroom errors --markdown` print, so the docs cannot fall behind the table and the enum.
final class GeneratedDocsTests: XCTestCase {
    private var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
    }

    private func assertCurrent(_ doc: String, _ command: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let printed = try darkroom(command)
        XCTAssertEqual(printed.status, 0, printed.stderr, file: file, line: line)
        let committed = try String(contentsOfFile: repositoryRoot + "/" + doc, encoding: .utf8)
        XCTAssertEqual(committed, printed.stdout,
                       "\(doc) is stale: run `darkroom \(command.joined(separator: " ")) > \(doc)`", file: file, line: line)
    }

    func testOutputOptionsDocIsWhatFormatsPrints() throws {
        try assertCurrent("docs/output-options.md", ["formats", "--markdown"])
    }

    func testErrorCodesDocIsWhatErrorsPrints() throws {
        try assertCurrent("docs/error-codes.md", ["errors", "--markdown"])
    }

    /// Every option's key and flag and every format that takes it stand in the doc's table.
    func testEveryOutputOptionIsInTheDoc() throws {
        let doc = try String(contentsOfFile: repositoryRoot + "/docs/output-options.md", encoding: .utf8)
        for option in OutputOption.all {
            let row = try XCTUnwrap(doc.split(separator: "\n").first { $0.hasPrefix("| `\(option.name)` |") }, option.name)
            XCTAssertTrue(row.contains("`\(option.flag)`") || row.contains("`--no-\(option.flag.dropFirst(2))`"), "\(option.name): \(row)")
            for format in option.forms[0].formats where option.forms[0].formats != ImageFormat.writableFormats {
                XCTAssertTrue(row.contains(format.rawValue), "\(option.name) takes \(format): \(row)")
            }
        }
    }

    /// Every code a report can carry has its row, with what happened and what to do.
    func testEveryErrorCodeIsInTheDoc() throws {
        let doc = try String(contentsOfFile: repositoryRoot + "/docs/error-codes.md", encoding: .utf8)
        for code in ErrorCode.allCases {
            XCTAssertTrue(doc.contains("| `\(code.rawValue)` | \(code.meaning) | \(code.remedy) |"), code.rawValue)
        }
    }

    /// The plain listings name every code and every option too.
    func testThePlainListingsNameEveryCodeAndOption() throws {
        let errors = try darkroom(["errors"])
        XCTAssertEqual(errors.status, 0, errors.stderr)
        for code in ErrorCode.allCases { XCTAssertTrue(errors.stdout.contains("  \(code.rawValue) "), code.rawValue) }
        let formats = try darkroom(["formats"])
        XCTAssertEqual(formats.status, 0, formats.stderr)
        for option in OutputOption.all { XCTAssertTrue(formats.stdout.contains(" \(option.name) "), option.name) }
    }

    /// The README points at the generated list instead of keeping its own.
    func testTheReadmeLinksTheErrorCodes() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("docs/error-codes.md"))
        XCTAssertFalse(readme.contains("`encode_failed`, `chain_failed`"), "a hand-kept list of codes")
    }
}
