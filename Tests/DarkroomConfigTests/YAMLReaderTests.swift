import XCTest
@testable import DarkroomConfig

final class YAMLReaderTests: XCTestCase {
    func testBlockAndFlowNodesCarryOneBasedPositions() throws {
        let yaml = """
            workers: 3
            limits: { max_pixels: 10, max_file_bytes: 1MiB }
            list:
              - a
              - [b, "c"]
            """
        let root = try XCTUnwrap(try YAMLReader.read(yaml))
        guard case .mapping(let pairs) = root.content else { return XCTFail("root is not a mapping") }
        XCTAssertEqual(pairs.map { $0.key.text }, ["workers", "limits", "list"])
        XCTAssertEqual(pairs[0].key.mark, SourceMark(line: 1, column: 1))
        XCTAssertEqual(pairs[0].value.mark, SourceMark(line: 1, column: 10))
        XCTAssertEqual(pairs[0].value.text, "3")
        guard case .mapping(let limits) = pairs[1].value.content else { return XCTFail("limits is not a mapping") }
        XCTAssertEqual(limits[1].key.mark, SourceMark(line: 2, column: 27))
        XCTAssertEqual(limits[1].value.text, "1MiB")
        XCTAssertEqual(limits[1].value.mark, SourceMark(line: 2, column: 43))
        guard case .sequence(let items) = pairs[2].value.content, items.count == 2,
              case .sequence(let inner) = items[1].content else { return XCTFail("list is not [a, [b, c]]") }
        XCTAssertEqual(items[0].mark, SourceMark(line: 4, column: 5))
        XCTAssertEqual(inner.map(\.text), ["b", "c"])
        XCTAssertEqual(inner[1].mark, SourceMark(line: 5, column: 9))
    }

    func testNullsAreOnlyUnquotedEmptyTildeOrNull() throws {
        let root = try XCTUnwrap(try YAMLReader.read("a:\nb: ~\nc: null\nd: \"\"\ne: 'null'\n"))
        guard case .mapping(let pairs) = root.content else { return XCTFail("not a mapping") }
        XCTAssertEqual(pairs.map(\.value.isNull), [true, true, true, false, false])
    }

    func testEmptyDocumentReadsAsNothing() throws {
        XCTAssertNil(try YAMLReader.read(""))
        XCTAssertNil(try YAMLReader.read("# only a comment\n"))
    }

    func testSyntaxErrorCarriesLibyamlProblemAndPosition() {
        do {
            _ = try YAMLReader.read("workers: 2\nlog: { level: info\nwatches: []\n")
            XCTFail("unterminated flow mapping was accepted")
        } catch {
            XCTAssertTrue(error.message.hasPrefix("YAML syntax: "), error.message)
            XCTAssertTrue(error.message.contains("flow mapping"), error.message)
            XCTAssertEqual(error.mark.line, 3)
        }
    }

    func testAliasesAreRefusedWhereTheyStand() {
        do {
            _ = try YAMLReader.read("a: &x 1\nb: *x\n")
            XCTFail("anchor was accepted")
        } catch {
            XCTAssertEqual(error.mark, SourceMark(line: 1, column: 4))
            XCTAssertTrue(error.message.contains("anchors and aliases"), error.message)
        }
    }

    func testSecondDocumentIsRefused() {
        XCTAssertThrowsError(try YAMLReader.read("a: 1\n---\nb: 2\n")) { error in
            XCTAssertEqual((error as? YAMLSyntaxError)?.mark.line, 2)
        }
    }

    func testDeepNestingIsRefusedInsteadOfExhaustingTheStack() {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertThrowsError(try YAMLReader.read(deep)) { error in
            XCTAssertTrue((error as? YAMLSyntaxError)?.message.contains("nested") == true, "\(error)")
        }
    }
}
