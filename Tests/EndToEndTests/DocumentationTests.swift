import Foundation
import XCTest

/// The documentation a newcomer reads: the generated filter reference is what the binary prints
/// now, the README stays a first read whose every command and `make` target exists, and no page
/// links to a file that is not there.
final class DocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    func testTheFilterReferenceIsWhatTheBinaryPrints() throws {
        let result = try darkroom(["filters", "--markdown"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let committed = try Self.read("docs/filters.md")
        XCTAssertTrue(committed == result.stdout,
                      "docs/filters.md is stale: regenerate it with `.build/debug/darkroom filters --markdown > docs/filters.md`")
        // It is the reference, not an empty page: every filter has its section and its parameters.
        let list = try JSONSerialization.jsonObject(with: Data(try darkroom(["filters", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertGreaterThan(list.count, 40)
        for filter in list {
            let name = try XCTUnwrap(filter["name"] as? String)
            XCTAssertTrue(committed.contains("\n### \(name)\n"), "no section for \(name)")
            for parameter in filter["parameters"] as? [[String: Any]] ?? [] {
                let p = try XCTUnwrap(parameter["name"] as? String)
                XCTAssertTrue(committed.contains("| `\(p)` |"), "\(name).\(p) is not in the table")
            }
        }
    }

    func testMarkdownAndJSONAreTwoFormatsNotBoth() throws {
        let both = try darkroom(["filters", "--json", "--markdown"])
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.stderr.contains("choose one"), both.stderr)
    }

    func testTheReadmeIsAFirstReadAndEveryCommandItGivesExists() throws {
        let readme = try Self.read("README.md")
        let lines = readme.components(separatedBy: "\n")
        XCTAssertLessThanOrEqual(lines.count, 301, "README.md is for first use: the rest goes to docs/")
        XCTAssertTrue(readme.contains("make demo") && readme.contains("make test"), "the two commands")

        // `make` targets, in code.
        let makefile = try Self.read("Makefile")
        let targets = Set(makefile.components(separatedBy: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix("#"), !line.hasPrefix(".") else { return nil }
            let name = line[..<colon]
            return name.contains(" ") || name.contains("=") ? nil : String(name)
        })
        let code = Self.code(in: readme)
        for target in Self.words(after: "make ", in: code) {
            XCTAssertTrue(targets.contains(target), "README gives `make \(target)`, which the Makefile has not (targets: \(targets.sorted()))")
        }

        // darkroom's subcommands and their options, in code.
        let help = try darkroom(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        var used = [String: Set<String>]()
        for line in code {
            for range in Self.ranges(of: "darkroom ", in: line) {
                let rest = line[range.upperBound...]
                let word = String(rest.prefix { $0.isLowercase })
                guard !word.isEmpty, rest.dropFirst(word.count).first.map({ $0 == " " || $0 == "`" }) ?? true else { continue }
                let options = rest.split(separator: " ").filter { $0.hasPrefix("--") }
                    .map { String($0.prefix { $0.isLetter || $0 == "-" }) }
                used[word, default: []].formUnion(options)
            }
        }
        XCTAssertTrue(used.keys.contains("run") && used.keys.contains("process"), "\(used.keys.sorted())")
        for (subcommand, options) in used where subcommand != "help" {
            XCTAssertTrue(help.stdout.contains("  \(subcommand) "), "README gives `darkroom \(subcommand)`, which `darkroom --help` does not list")
            let own = try darkroom([subcommand, "--help"])
            for option in options where option != "--help" {
                XCTAssertTrue(own.stdout.contains(option), "README gives `darkroom \(subcommand) \(option)`, which its --help does not list")
            }
        }
    }

    /// The README's first paragraph, what a newcomer reads first, names every format the binary
    /// reads (a new format shows up here, or this fails).
    func testTheReadmeNamesEveryFormatDarkroomReads() throws {
        let intro = try Self.read("README.md").components(separatedBy: "\n\n").dropFirst().first ?? ""
        let listing = try darkroom(["formats", "--json"])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any]
        let formats = try XCTUnwrap(json?["formats"] as? [[String: Any]]).compactMap { $0["format"] as? String }
        XCTAssertGreaterThanOrEqual(formats.count, 11, listing.stdout)
        let flat = intro.replacingOccurrences(of: "\n", with: " ")
        for format in formats {
            XCTAssertTrue(flat.contains(format), "README.md's first paragraph does not name \(format): \(flat)")
        }
    }

    /// The README's first config, written to a file with the logo beside it as a reader would,
    /// passes `darkroom check`.
    func testTheReadmesFirstConfigIsValid() throws {
        let readme = try Self.read("README.md")
        let block = try XCTUnwrap(readme.components(separatedBy: "```yaml\n# first.yaml").dropFirst().first, "no first.yaml block")
        let yaml = "# first.yaml" + block.components(separatedBy: "```")[0]
        let s = Scratch()
        s.writeInPlace("first.yaml", Array(yaml.utf8))
        s.writeInPlace("logo.svg", Array(try Self.read("logo.svg").utf8))
        s.makeFolder("inbox/photos")
        let check = try darkroom(["check", s.path("first.yaml")])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    func testEveryLinkBetweenThePagesLeadsToAFile() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        XCTAssertTrue(docs.contains("docs/performance.md") && docs.contains("docs/filters.md"), "\(docs)")
        for page in ["README.md"] + docs {
            let text = try Self.read(page)
            let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
            for target in Self.links(in: text) where !target.contains("://") && !target.hasPrefix("#") {
                let file = String(target.prefix { $0 != "#" })
                let path = Self.root.appendingPathComponent(folder == "." ? file : folder + "/" + file).standardized.path
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(page) links to \(target), which does not exist")
            }
        }
    }

    /// Lines of fenced code blocks, and inline code spans.
    static func code(in text: String) -> [String] {
        var lines = [String](), fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            if fenced { lines.append(line); continue }
            let spans = line.components(separatedBy: "`")
            lines += stride(from: 1, to: spans.count, by: 2).map { spans[$0] }
        }
        return lines
    }

    static func words(after prefix: String, in lines: [String]) -> Set<String> {
        Set(lines.flatMap { line in
            ranges(of: prefix, in: line).compactMap { range -> String? in
                let word = String(line[range.upperBound...].prefix { $0.isLetter || $0 == "-" })
                return word.isEmpty ? nil : word
            }
        })
    }

    static func ranges(of needle: String, in line: String) -> [Range<String.Index>] {
        var found = [Range<String.Index>](), start = line.startIndex
        while let range = line.range(of: needle, range: start..<line.endIndex) {
            // A whole word: not the tail of `.build/release/darkroom`'s path or another word.
            let before = range.lowerBound == line.startIndex ? " " : line[line.index(before: range.lowerBound)]
            if before == " " || before == "/" || before == "(" || before == "$" { found.append(range) }
            start = range.upperBound
        }
        return found
    }

    /// The targets of Markdown links `[text](target)`.
    static func links(in text: String) -> [String] {
        text.components(separatedBy: "](").dropFirst().compactMap { rest in
            rest.firstIndex(of: ")").map { String(rest[..<$0]) }
        }
    }
}
