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
        XCTAssertEqual(OutputTemplate.render("/o/{watch}/{stem}-{ext}/{name}", inputPath: "/in/.hidden.tar.gz", watch: "w"),
                       "/o/w/.hidden.tar-gz/.hidden.tar.gz")
        XCTAssertEqual(OutputTemplate.render("{stem}|{ext}", inputPath: "/in/README", watch: "w"), "README|")
    }

    func testByteSizes() {
        XCTAssertEqual(ByteSize.parse("256MiB"), 268_435_456)
        XCTAssertEqual(ByteSize.parse("1 TB"), 1_000_000_000_000)
        XCTAssertNil(ByteSize.parse("12 parsecs"))
        XCTAssertNil(ByteSize.parse("MiB"))
        XCTAssertNil(ByteSize.parse("99999999999TiB"))
    }
}
