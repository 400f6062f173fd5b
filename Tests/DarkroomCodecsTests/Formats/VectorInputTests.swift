import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// PDF (poppler) and SVG (librsvg) inputs: told by content, a page drawn at a DPI or at a
/// leading resize's size, held to `pdftoppm`, `pdftocairo` and `rsvg-convert` at the same size, and broken or
/// hostile files refused with their error code.
final class VectorInputTests: XCTestCase {
    static let pdftoppm = ("pdftoppm", "poppler-utils")
    static let pdftocairo = ("pdftocairo", "poppler-utils")
    static let rsvgConvert = ReferenceTool.rsvgConvert

    /// `bytes` decoded by darkroom at `page` (page, dpi, render size).
    private func decode(_ bytes: [UInt8], _ page: VectorPage = VectorPage(), limits: DecodeLimits = .init()) throws -> (Image, ImageDecoder) {
        var options = DecodeOptions(limits: limits)
        options.vector = page
        let decoder = try ImageDecoder(bytes, options: options)
        var failure: (any Error)?
        let image = Image(width: decoder.size.width, height: decoder.size.height) { buffer in
            do { try decoder.readRows(count: decoder.size.height, into: buffer.baseAddress!, stride: decoder.size.width) } catch {
                failure = error
                buffer.initialize(repeating: .zero)
            }
        }
        if let failure { throw failure }
        return (image, decoder)
    }

    private func png(_ path: String) throws -> Image {
        try ImageCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).image
    }

    /// A three-page A4-ish PDF drawn by cairo (python3-cairo) in the test: text, shapes, a gradient.
    private func madePDF(in folder: TemporaryFolder, pages: [(Double, Double)] = [(300, 200), (200, 300), (250, 250)]) throws -> String {
        let path = folder.file("made.pdf")
        let sizes = pages.map { "(\($0.0), \($0.1))" }.joined(separator: ", ")
        let script = """
            import cairo
            s = cairo.PDFSurface("\(path)", 10, 10)
            for i, (w, h) in enumerate([\(sizes)]):
                s.set_size(w, h)
                c = cairo.Context(s)
                g = cairo.RadialGradient(w / 2, h / 2, 5, w / 2, h / 2, w / 2)
                g.add_color_stop_rgb(0, 1, 0.8, 0.1); g.add_color_stop_rgb(1, 0.1, 0.2, 0.7)
                c.set_source(g); c.rectangle(10, 10, w - 20, h - 20); c.fill()
                c.set_source_rgb(0.1, 0.1, 0.1); c.set_font_size(28); c.move_to(20, h / 2); c.show_text("Page %d" % (i + 1))
                c.set_line_width(4); c.move_to(0, 0); c.line_to(w, h); c.stroke()
                s.show_page()
            s.finish()
            """
        try CairoScript.run(script)
        return path
    }

    func testFormatsAreToldByContent() throws {
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("pages.pdf")), .pdf)
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("shapes.svg")), .svg, "after a declaration, a comment and a doctype")
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("shapes.svgz")), .svg, "gzip'd")
        XCTAssertEqual(ImageFormat.detect(Array(#"<svg width="1" height="1"/>"#.utf8)), .svg)
        XCTAssertEqual(ImageFormat.detect(Array("\u{FEFF}  <svg>".utf8)), .svg, "a byte-order mark and white space first")
        XCTAssertNil(ImageFormat.detect(Array("<html><svg></svg></html>".utf8)), "an HTML page holding an SVG is not one")
        XCTAssertNil(ImageFormat.detect(Array("<svgx/>".utf8)))
        XCTAssertNil(ImageFormat.detect(Array("%PDX-1.4".utf8)))
        XCTAssertFalse(ImageFormat.pdf.isWritable || ImageFormat.svg.isWritable, "read only")
        XCTAssertEqual(ImageFormat.fromExtension("svgz"), .svg)
    }

    func testTheHeaderListsEveryPageSizeAndTheFirstAt150DPI() throws {
        let info = try ImageCodec.readInfo(try Fixtures.bytes("pages.pdf"))
        XCTAssertEqual(info.format, .pdf)
        XCTAssertEqual(info.pages, 2)
        XCTAssertEqual(info.pageSizes, [PageSize(width: 144, height: 108), PageSize(width: 108, height: 144)])
        XCTAssertEqual([info.width, info.height], [300, 225], "144×108 pt at 150 dpi")
        XCTAssertFalse(info.hasAlpha, "a PDF page is drawn on white")
        let svg = try ImageCodec.readInfo(try Fixtures.bytes("shapes.svg"))
        XCTAssertEqual(svg.pageSizes, [PageSize(width: 72, height: 36)], "96×48 user units at 96 per inch")
        XCTAssertEqual([svg.width, svg.height], [150, 75])
        XCTAssertTrue(svg.hasAlpha)
    }

    /// Each page at its DPI against poppler's own tools at the same size: pdftocairo (poppler on
    /// cairo, as darkroom draws) within 60 dB, pdftoppm (poppler's Splash rasteriser, whose
    /// gradients and antialiasing differ) within 25 dB.
    func testPDFPagesMatchPdftoppmAndPdftocairo() throws {
        let folder = TemporaryFolder()
        let pdf = try madePDF(in: folder)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
        for (page, dpi) in [(1, 150.0), (2, 72.0), (3, 100.0)] {
            let (image, decoder) = try decode(bytes, VectorPage(page: page, dpi: dpi))
            XCTAssertTrue(decoder.isOpaque)
            for (tool, least) in [(Self.pdftocairo, 60.0), (Self.pdftoppm, 25.0)] {
                let prefix = folder.file("\(tool.0)\(page)")
                try FormatTools.run(tool, ["-png", "-f", "\(page)", "-l", "\(page)", "-scale-to-x", "\(image.size.width)",
                                           "-scale-to-y", "\(image.size.height)", "-singlefile", pdf, prefix])
                let reference = try png(prefix + ".png")
                XCTAssertEqual(reference.size, image.size)
                XCTAssertGreaterThanOrEqual(psnr(image, reference), least, "\(tool.0): page \(page) at \(dpi) dpi")
            }
        }
        let (page2, _) = try decode(bytes, VectorPage(page: 2, dpi: 72))
        XCTAssertEqual([page2.size.width, page2.size.height], [200, 300], "page 2 is 200×300 pt: 200×300 px at 72 dpi")
    }

    /// The SVG (transparent background kept) against rsvg-convert at the same size, at 150 dpi
    /// and drawn at a render size; PSNR ≥ 40 dB (the same librsvg).
    func testSVGMatchesRsvgConvertWithItsTransparency() throws {
        let folder = TemporaryFolder()
        for name in ["shapes.svg", "shapes.svgz"] {
            for page in [VectorPage(), VectorPage(renderSize: Size(width: 400, height: 200))] {
                let (image, decoder) = try decode(try Fixtures.bytes(name), page)
                XCTAssertFalse(decoder.isOpaque)
                let reference = folder.file("ref.png")
                try FormatTools.run(Self.rsvgConvert, ["-w", "\(image.size.width)", "-h", "\(image.size.height)",
                                                       Fixtures.path(name), "-o", reference])
                let expected = try png(reference)
                XCTAssertEqual(expected.size, image.size)
                XCTAssertGreaterThanOrEqual(psnr(image, expected), 40, "\(name) at \(image.size)")
                XCTAssertEqual(image[0, 0][3], 0, "the corner outside every shape stays transparent")
            }
        }
        let (image, _) = try decode(try Fixtures.bytes("shapes.svg"))
        XCTAssertEqual(image.size, Size(width: 150, height: 75), "96 user units are an inch: 150 px at 150 dpi")
    }

    /// A resize after the input: the page is drawn at the resize's size (the decoder delivers it),
    /// and the output is exactly that size.
    func testALeadingResizeDrawsThePageAtItsSize() throws {
        let bytes = try Fixtures.bytes("pages.pdf")
        for (chain, size) in [("resize width=720", Size(width: 720, height: 540)), ("resize width=100 height=100", Size(width: 100, height: 75)),
                              ("resize width=50 height=50 fit=cover", Size(width: 50, height: 50))] {
            let compiled = ChainCompiler.compile(try ChainSyntax.parse(chain).resolve(seed: 1))
            let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(bytes))
            let rendered = try ChainRenderer.render(bytes, plan: plan, options: EncodeOptions(format: .png), limits: .init())
            XCTAssertEqual(rendered.size, size, chain)
            let drawn = try XCTUnwrap(rendered.vector?.renderSize, chain)
            if chain.contains("cover") {
                XCTAssertEqual(drawn, Size(width: 67, height: 50), "cover: drawn at the picture before its overflow is cropped")
            } else {
                XCTAssertEqual(drawn, size, "\(chain): drawn at the output's size, not at 300×225 and resampled")
            }
            XCTAssertEqual(plan.pipeline.sourceSize, drawn, "the decoder delivers the drawn size")
        }
        // Drawn at 720 px it equals pdftocairo at 720 px: not a 300-px (150-dpi) raster enlarged.
        let folder = TemporaryFolder()
        let compiled = ChainCompiler.compile(try ChainSyntax.parse("resize width=720").resolve(seed: 1))
        let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(bytes))
        let png = try ChainRenderer.render(bytes, plan: plan, options: EncodeOptions(format: .png), limits: .init()).bytes
        try FormatTools.run(Self.pdftocairo, ["-png", "-f", "1", "-l", "1", "-scale-to-x", "720", "-scale-to-y", "540", "-singlefile",
                                            Fixtures.path("pages.pdf"), folder.file("ref")])
        XCTAssertGreaterThanOrEqual(psnr(try ImageCodec.decode(png).image, try self.png(folder.file("ref.png"))), 50)
    }

    func testAPageBeyondTheLastIsRefused() throws {
        XCTAssertThrowsError(try decode(try Fixtures.bytes("pages.pdf"), VectorPage(page: 3))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .unsupported)
            XCTAssertTrue((error as? CodecError)?.message.contains("page 3 asked for; the PDF has 2") == true, "\(error)")
        }
    }

    /// A 100000×100000 pt page at 150 dpi is 208333² pixels: refused from its size, before any
    /// pixel memory (a band of it would already be 833 KB a row).
    func testAHugePageIsTooLargeBeforeDrawing() throws {
        let folder = TemporaryFolder()
        let pdf = try madePDF(in: folder, pages: [(100_000, 100_000)])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
        XCTAssertEqual(try ImageCodec.readInfo(bytes).pageSizes, [PageSize(width: 100_000, height: 100_000)])
        XCTAssertThrowsError(try ImageDecoder(bytes)) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("208333×208333") == true, "\(error)")
        }
        // Even drawn small, the page at its DPI is over the limit (as the issue asks: page × DPI).
        var options = DecodeOptions()
        options.vector = VectorPage(renderSize: Size(width: 100, height: 100))
        XCTAssertThrowsError(try ImageDecoder(bytes, options: options)) { XCTAssertEqual(($0 as? CodecError)?.code, .tooLarge) }
        // At 1 dpi it is 1389² pixels and is drawn.
        XCTAssertEqual(try decode(bytes, VectorPage(dpi: 1)).0.size, Size(width: 1389, height: 1389))
    }

    func testBrokenFilesFailWithTheirCode() throws {
        let pdf = try Fixtures.bytes("pages.pdf"), svg = try Fixtures.bytes("shapes.svg")
        let cases: [(String, [UInt8], ErrorCode)] = [
            ("a PDF cut in half", Array(pdf.prefix(pdf.count / 2)), .truncated),
            ("a PDF of junk after its signature", Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x41, count: 500) + Array("\n%%EOF\n".utf8), .corrupt),
            ("a PDF whose objects are overwritten", Array(pdf.prefix(9)) + [UInt8](repeating: 0x20, count: pdf.count - 20) + Array(pdf.suffix(11)), .corrupt),
            ("an SVG cut short", Array(svg.prefix(svg.count - 40)), .truncated),
            ("an SVG that is not well-formed", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect x=1/></svg>"#.utf8), .corrupt),
            ("an SVG with no size", Array(#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>"#.utf8), .unsupported),
        ]
        for (what, bytes, code) in cases {
            XCTAssertThrowsError(try decode(bytes), what) { error in
                XCTAssertEqual((error as? CodecError)?.code, code, "\(what): \(error)")
                XCTAssertFalse((error as? CodecError)?.message.isEmpty ?? true)
            }
        }
    }

    /// librsvg has no base file for the document, so an image or an external entity naming a
    /// file (absolute, relative or file: URL) is not read: the red picture never shows.
    func testAnSVGReferencingAFileOrURLDoesNotReadIt() throws {
        let folder = TemporaryFolder()
        let red = try FormatTools.png(Image(width: 8, height: 8) { _, _ in Pixel(1, 0, 0, 1) }, "red.png", in: folder)
        let redSVG = folder.file("red.svg")
        try Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>"#.utf8)
            .write(to: redSVG)
        let entityText = folder.file("entity.txt")
        try Array(#"<rect width="40" height="40" fill="red"/>"#.utf8).write(to: entityText)
        let svg = """
            <?xml version="1.0"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">
              <image href="\(red)" width="40" height="40"/>
              <image xlink:href="file://\(red)" width="40" height="40"/>
              <image href="red.png" width="40" height="40"/>
              <image href="http://127.0.0.1:9/red.png" width="40" height="40"/>
              <use href="file://\(redSVG)#x"/>
              <image href="\(redSVG)" width="40" height="40"/>
              <rect x="0" y="0" width="4" height="4" fill="blue"/>
            </svg>
            """
        let image = try decode(Array(svg.utf8), VectorPage(dpi: 96)).0
        XCTAssertEqual(image[1, 1], Pixel(0, 0, 1, 1), "the document's own shapes are drawn")
        XCTAssertFalse(image.pixels.contains { $0[0] > 0.5 && $0[3] > 0.5 }, "a referenced file was drawn")

        // An external entity is not loaded: the document is refused, the entity undefined.
        let entity = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY outside SYSTEM "file://\(entityText)"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">&outside;</svg>
            """
        XCTAssertThrowsError(try decode(Array(entity.utf8))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .corrupt)
            XCTAssertTrue("\(error)".contains("Entity 'outside' not defined"), "\(error)")
        }
    }
}

private extension Array where Element == UInt8 {
    func write(to path: String) throws { try Data(self).write(to: URL(fileURLWithPath: path)) }
}
