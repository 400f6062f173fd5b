import XCTest
@testable import DarkroomConfig

final class PathTests: XCTestCase {
    func testStandardizeAndResolve() {
        XCTAssertEqual(ConfigPath.standardize("/a/./b//c/../d/"), "/a/b/d")
        XCTAssertEqual(ConfigPath.standardize("/../.."), "/")
        XCTAssertEqual(ConfigPath.resolve("x/../y", against: "/base"), "/base/y")
        XCTAssertEqual(ConfigPath.resolve("/abs", against: "/base"), "/abs")
        XCTAssertEqual(ConfigPath.sibling("done", of: "/srv/inbox"), "/srv/done")
    }

    func testWithinIsByWholeComponents() {
        XCTAssertTrue(ConfigPath.isWithin("/a/b", "/a"))
        XCTAssertTrue(ConfigPath.isWithin("/a", "/a"))
        XCTAssertTrue(ConfigPath.isWithin("/a", "/"))
        XCTAssertFalse(ConfigPath.isWithin("/ab", "/a"))
    }

    func testTemplateFixedDirectoryAndRendering() {
        XCTAssertEqual(OutputTemplate.fixedDirectory(of: "/out/{watch}/thumbs/{stem}.jpg", watch: "w"), "/out/w/thumbs")
        XCTAssertEqual(OutputTemplate.fixedDirectory(of: "/out/{stem}/x.jpg", watch: "w"), "/out")
        XCTAssertEqual(OutputTemplate.render("/o/{watch}/{stem}-{ext}/{name}", relativePath: ".hidden.tar.gz", watch: "w"),
                       "/o/w/.hidden.tar-gz/.hidden.tar.gz")
        XCTAssertEqual(OutputTemplate.render("{stem}|{ext}", relativePath: "README", watch: "w"), "README|")
    }

    func testDirIsTheInputsFolderBelowTheWatchAndRecursiveWatchesMirrorItByDefault() {
        XCTAssertEqual(OutputTemplate.render("/o/{dir}/{stem}.jpg", relativePath: "a/b/x.png", watch: "w"), "/o/a/b/x.jpg")
        XCTAssertEqual(OutputTemplate.render("/o/{dir}/{stem}.jpg", relativePath: "x.png", watch: "w"), "/o/x.jpg",
                       "an empty {dir} leaves no double slash")
        XCTAssertEqual(OutputTemplate.render("/o/{stem}.jpg", relativePath: "a/x.png", watch: "w", mirrorFolders: true), "/o/a/x.jpg")
        XCTAssertEqual(OutputTemplate.render("/o/{stem}.jpg", relativePath: "a/x.png", watch: "w", mirrorFolders: false), "/o/x.jpg")
        XCTAssertEqual(OutputTemplate.render("/o/{dir}-{stem}.jpg", relativePath: "a/x.png", watch: "w", mirrorFolders: true),
                       "/o/a-x.jpg", "a template with {dir} says where the folder goes")
        XCTAssertEqual(OutputTemplate.fixedDirectory(of: "/o/{dir}/{stem}.jpg", watch: "w"), "/o")
    }

    func testANonUTF8ConfigIsReportedAtItsLineAndColumn() {
        let text: [UInt8] = Array("watches:\n  - path: ./caf".utf8) + [0xE9] + Array("\n".utf8)
        let position = UTF8Position.firstInvalid(in: text)
        XCTAssertEqual(position?.line, 2)
        XCTAssertEqual(position?.column, 16)
        XCTAssertEqual(position?.byte, 0xE9)
        XCTAssertNil(UTF8Position.firstInvalid(in: Array("ünïcødé 写真\n".utf8)))
    }

    func testByteSizes() {
        XCTAssertEqual(ByteSize.parse("256MiB"), 268_435_456)
        XCTAssertEqual(ByteSize.parse("1 TB"), 1_000_000_000_000)
        XCTAssertNil(ByteSize.parse("12 parsecs"))
        XCTAssertNil(ByteSize.parse("MiB"))
        XCTAssertNil(ByteSize.parse("99999999999TiB"))
    }
}
