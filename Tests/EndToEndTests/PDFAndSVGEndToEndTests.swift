import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// PDF and SVG inputs through `darkroom process`, as a user runs it: `--pages all` writes one
/// file per page numbered by `{page}`, the report says which page was drawn at what size, and a
/// page too large at its DPI fails before anything is drawn.
final class PDFAndSVGEndToEndTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../DarkroomCodecsTests/Fixtures").standardized

    private func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    func testPagesAllWritesEveryPageAndTheReportListsEach() throws {
        let s = Scratch()
        s.writeInPlace("proof.pdf", try fixture("pages.pdf"))
        let result = try darkroom(["process", "--chain", "resize width=200", "--pages", "all", s.path("proof.pdf"),
                                   "-o", s.path("out/"), "--format", "png", "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(s.files(in: "out"), ["proof-1.png", "proof-2.png"])
        let first = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/proof-1.png")))
        let second = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/proof-2.png")))
        XCTAssertEqual([first.width, first.height], [200, 150], "page 1 is 144×108 pt")
        XCTAssertEqual([second.width, second.height], [200, 267], "page 2 is 108×144 pt")
        let report = try XCTUnwrap(s.report("reports/proof.pdf.json"))
        XCTAssertEqual((report["input"] as? [String: Any])?["format"] as? String, "pdf")
        XCTAssertEqual((report["input"] as? [String: Any])?["pages"] as? Int, 2)
        let outputs = try XCTUnwrap(report["outputs"] as? [[String: Any]])
        XCTAssertEqual(outputs.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } },
                       ["proof-1.png", "proof-2.png"])
        let pages = outputs.compactMap { $0["page"] as? [String: Any] }
        XCTAssertEqual(pages.map { $0["number"] as? Int }, [1, 2])
        XCTAssertEqual(pages.map { [$0["rendered_width"] as? Int, $0["rendered_height"] as? Int] }, [[200, 150], [200, 267]],
                       "each page drawn at the resize's size, not at 150 dpi")
    }

    func testPagesAllIntoOneFileNameIsRefused() throws {
        let s = Scratch()
        s.writeInPlace("proof.pdf", try fixture("pages.pdf"))
        let result = try darkroom(["process", "--chain", "resize width=20", "--pages", "all", s.path("proof.pdf"), "-o", s.path("one.png")])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("put {page} in -o"), result.stderr)
    }

    func testASecondPageAtADPIAndAnSVG() throws {
        let s = Scratch()
        s.writeInPlace("proof.pdf", try fixture("pages.pdf"))
        s.writeInPlace("logo.svg", try fixture("shapes.svg"))
        for (input, page) in [("proof.pdf", "2"), ("logo.svg", "1")] {
            let result = try darkroom(["process", "--chain", "sepia intensity=0", "--page", page, "--dpi", "72", s.path(input),
                                       "-o", s.path("out/"), "--format", "png"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let refused = try darkroom(["process", "--chain", "sepia intensity=0", "--page", "2", s.path("logo.svg"), "-o", s.path("no.png")])
        XCTAssertTrue(refused.stderr.contains("page 2 asked for; the SVG has one page"), refused.stderr)
        let page = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/proof.png")))
        XCTAssertEqual([page.width, page.height], [108, 144], "page 2 at 72 dpi: one pixel a point")
        let logo = try ImageCodec.decode(try XCTUnwrap(s.read("out/logo.png")))
        XCTAssertEqual([logo.info.width, logo.info.height], [72, 36], "96 user units an inch: 96×48 at 72 dpi")
        XCTAssertTrue(logo.info.hasAlpha, "the SVG's transparent background is kept")
    }

    /// A 100000×100000 pt page is 208333² pixels at 150 dpi: too_large, told before drawing.
    func testAHugePageIsTooLarge() throws {
        let s = Scratch()
        let pdf = """
            %PDF-1.4
            1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
            2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
            3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 100000 100000] >> endobj
            trailer << /Root 1 0 R >>
            %%EOF
            """
        s.writeInPlace("huge.pdf", Array(pdf.utf8))
        let result = try darkroom(["process", "--chain", "resize width=100", s.path("huge.pdf"), "-o", s.path("out.png"),
                                   "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("too_large: page 1 at 150 dpi is 208333×208333"), result.stderr)
        XCTAssertNil(s.read("out.png"))
    }
}
