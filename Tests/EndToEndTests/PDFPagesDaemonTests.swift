import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import XCTest

/// `pages: all` through a watched folder, as a print shop runs it: a three-page PDF dropped into
/// the inbox gives three outputs named by `{page}`, each page at its own size, and one report
/// that lists them; the PDF then moves to done.
final class PDFPagesDaemonTests: XCTestCase {
    /// A PDF of three pages of different sizes (in points), drawn by cairo (python3-cairo).
    private func threePagePDF(_ s: Scratch) throws -> [UInt8] {
        let path = s.path("made.pdf")
        let script = """
            import cairo
            s = cairo.PDFSurface("\(path)", 10, 10)
            for i, (w, h) in enumerate([(144, 108), (108, 144), (144, 144)]):
                s.set_size(w, h)
                c = cairo.Context(s)
                c.set_source_rgb(0.2 * i, 0.3, 0.8 - 0.2 * i); c.rectangle(8, 8, w - 16, h - 16); c.fill()
                c.set_source_rgb(0, 0, 0); c.set_font_size(20); c.move_to(16, h / 2); c.show_text("Page %d" % (i + 1))
                s.show_page()
            s.finish()
            """
        try CairoScript.run(script)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testAWatchedPDFGivesOneOutputPerPageAndOneReport() throws {
        let s = Scratch()
        let pdf = try threePagePDF(s)
        s.writeConfig("""
            log: { level: debug, format: text }
            watches:
              - name: proofs
                path: \(s.path("inbox"))
                settle_ms: 100
                on_success: move
                done_dir: \(s.path("done"))
                failed_dir: \(s.path("failed"))
                reports_dir: \(s.path("reports"))
                outputs:
                  - path: \(s.path("out/{stem}-{page}.png"))
                    pages: all
                    chain:
                      - resize: { width: 120 }
            """)
        let daemon = try start(s)
        defer { stop(daemon) }
        s.writeInPlace("inbox/proof.pdf", pdf)

        XCTAssertTrue(eventually { s.files(in: "reports") == ["proof.pdf.json"] && s.files(in: "done") == ["proof.pdf"] },
                      "reports: \(s.files(in: "reports")); log:\n\(tail(daemon))")
        XCTAssertEqual(s.files(in: "out"), ["proof-1.png", "proof-2.png", "proof-3.png"])
        XCTAssertEqual(s.files(in: "failed"), [])
        let sizes = try (1...3).map { page in
            let info = try ImageCodec.readInfo(try XCTUnwrap(s.read("out/proof-\(page).png")))
            return [info.width, info.height]
        }
        XCTAssertEqual(sizes, [[120, 90], [120, 160], [120, 120]], "each page at its own aspect")

        let report = try XCTUnwrap(s.report("reports/proof.pdf.json"))
        XCTAssertEqual(report["status"] as? String, "ok")
        let input = try XCTUnwrap(report["input"] as? [String: Any])
        XCTAssertEqual(input["format"] as? String, "pdf")
        XCTAssertEqual(input["pages"] as? Int, 3)
        let outputs = try XCTUnwrap(report["outputs"] as? [[String: Any]])
        XCTAssertEqual(outputs.map { $0["path"] as? String }, (1...3).map { s.path("out/proof-\($0).png") })
        XCTAssertEqual(outputs.map { ($0["page"] as? [String: Any])?["number"] as? Int }, [1, 2, 3])
        XCTAssertEqual(outputs.map { [$0["width"] as? Int, $0["height"] as? Int] }, sizes.map { $0.map(Optional.some) })
    }
}
