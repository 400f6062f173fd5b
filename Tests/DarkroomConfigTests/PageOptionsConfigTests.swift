import DarkroomCodecs
import XCTest
@testable import DarkroomConfig

/// `page`, `pages` and `dpi` (PDF and SVG inputs) on an output, whatever its format; `pages: all`
/// needs `{page}` in the path, and does not go with `page`.
final class PageOptionsConfigTests: XCTestCase {
    private func yaml(_ path: String, _ keys: String) -> String {
        "watches:\n  - path: ./in\n    outputs:\n      - path: \(path)\n        \(keys)\n"
    }

    func testPageDPIAndPagesAreReadForEveryOutputFormat() throws {
        for format in ImageFormat.writableFormats {
            let output = try parse(yaml("./out/{stem}-{page}.\(format.fileExtension)", "{ pages: all, dpi: 300 }")
                .replacingOccurrences(of: "        { pages: all, dpi: 300 }", with: "        pages: all\n        dpi: 300"))
                .watches[0].outputs[0]
            XCTAssertEqual(output.encoding.pages, .all, "\(format)")
            XCTAssertEqual(output.encoding.dpi, 300)
            XCTAssertEqual(output.encoding.page, 1, "the default page")
        }
        let second = try parse(yaml("./out/{stem}.png", "page: 2")).watches[0].outputs[0]
        XCTAssertEqual(second.encoding.vectorPage, VectorPage(page: 2, dpi: 150))
    }

    func testPagesAllWithoutPagePlaceholderIsRefusedSayingWhatToWrite() {
        let diags = diagnostics(yaml("./out/{stem}.png", "pages: all"))
        assertSingle(diags, at: (5, 16), "pages: all writes one file per page", "put {page} in the path", "{stem}-{page}.png")
    }

    func testPageWithPagesAllIsRefused() {
        let diags = diagnostics(yaml("./out/{stem}-{page}.png", "page: 2\n        pages: all"))
        assertSingle(diags, at: (5, 15), "page names one page and pages: all asks for every page")
    }

    func testABadDPIOrPageSaysWhatItTakes() {
        assertSingle(diagnostics(yaml("./out/{stem}.png", "dpi: 0")), at: (5, 14), "from 1 to 2,400")
        assertSingle(diagnostics(yaml("./out/{stem}.png", "page: 0")), at: (5, 15), "from 1 to 1000000")
    }

    func testThePagePlaceholderIsFilledWithThePageNumber() {
        XCTAssertEqual(OutputTemplate.render("/out/{stem}-{page}.png", relativePath: "a.pdf", watch: "w", page: 3), "/out/a-3.png")
        XCTAssertEqual(OutputTemplate.render("/out/{stem}-{page}.png", relativePath: "a.jpg", watch: "w"), "/out/a-1.png",
                       "1 for an input that is not a PDF")
    }
}
