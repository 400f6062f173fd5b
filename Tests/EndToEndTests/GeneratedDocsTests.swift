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

    /// Every format of the table has its row, with its name and extensions, and the default
    /// include patterns follow the table.
    func testEveryFormatIsInTheDoc() throws {
        let doc = try String(contentsOfFile: repositoryRoot + "/docs/output-options.md", encoding: .utf8)
        for format in ImageFormat.allCases {
            let row = try XCTUnwrap(doc.split(separator: "\n").first { $0.hasPrefix("| \(format.displayName) | `\(format.rawValue)` |") },
                                    format.rawValue)
            for ext in format.fileExtensions { XCTAssertTrue(row.contains("`.\(ext)`"), "\(ext): \(row)") }
            XCTAssertTrue(row.contains(format.isWritable ? "| yes |" : "| no (read only) |"), String(row))
        }
        XCTAssertTrue(doc.contains("| camera RAW | `raw` | `.dng`, `.cr2`"), "RAW's row")
        XCTAssertTrue(doc.contains("| JPEG XL | `jxl` | `.jxl` | yes |"), "JPEG XL's row")
        XCTAssertTrue(doc.contains("`*.jxl` `*.heic`"), "the default include")
    }

    /// `--json` gives scripts the same tables: every format and option, every code.
    func testTheTablesAsJSON() throws {
        let formats = try darkroom(["formats", "--json"])
        XCTAssertEqual(formats.status, 0, formats.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(formats.stdout.utf8)) as? [String: [[String: String]]])
        XCTAssertEqual(object["formats"]?.compactMap { $0["name"] }, ImageFormat.allCases.map(\.rawValue))
        let jxl = try XCTUnwrap(object["formats"]?.first { $0["name"] == "jxl" })
        XCTAssertEqual(jxl, ["format": "JPEG XL", "name": "jxl", "extensions": ".jxl", "written": "yes", "animated": "no"])
        XCTAssertEqual(object["options"]?.compactMap { $0["option"] }, OutputOption.all.map(\.name))
        let errors = try darkroom(["errors", "--json"])
        XCTAssertEqual(errors.status, 0, errors.stderr)
        let codes = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(errors.stdout.utf8)) as? [String: [[String: String]]])
        XCTAssertEqual(codes["codes"]?.compactMap { $0["code"] }, ErrorCode.allCases.map(\.rawValue))
        XCTAssertEqual(codes["codes"]?.first?["remedy"], ErrorCode.notAnImage.remedy.replacingOccurrences(of: "`", with: ""))
        let both = try darkroom(["errors", "--json", "--markdown"])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.stderr.contains("choose one"), both.stderr)
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
        for option in OutputOption.all { XCTAssertTrue(formats.unwrapped.contains(" \(option.name) "), option.name) }
    }

    /// The README points at the generated list instead of keeping its own.
    func testTheReadmeLinksTheErrorCodes() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("docs/error-codes.md"))
        XCTAssertFalse(readme.contains("`encode_failed`, `chain_failed`"), "a hand-kept list of codes")
    }
}
