@testable import DarkroomCodecs
import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// A PDF or SVG input is parsed once: the header read keeps poppler's or librsvg's document on
/// the input (``DocumentShelf``), each decoder borrows it and gives it back, and what they draw
/// is what a decoder parsing the file afresh draws. Broken files fail as before and leave
/// nothing kept.
final class VectorDocumentShelfTests: XCTestCase {
    /// Every row of `input` decoded at `page`.
    private func drawn(_ input: ImageInput, _ page: VectorPage = VectorPage()) throws -> Image {
        var options = DecodeOptions()
        options.vector = page
        let decoder = try ImageDecoder(input, options: options)
        return try rows(of: decoder)
    }

    private func rows(of decoder: ImageDecoder) throws -> Image { try ImageCodec.image(from: decoder) }

    /// The document on the input's shelf now, left there.
    private func shelved(_ input: ImageInput) throws -> OpaquePointer? {
        let shelf = try XCTUnwrap(input.documents, "a PDF or SVG input has a shelf")
        let document = shelf.take()
        if let document { shelf.put(document) }
        return document
    }

    func testTheHeaderReadKeepsTheDocumentAndEachDecoderBorrowsIt() throws {
        for name in ["pages.pdf", "shapes.svg", "shapes.svgz"] {
            let bytes = try Fixtures.bytes(name)
            let input = ImageInput(bytes)
            XCTAssertNil(try shelved(input), "\(name): nothing parsed before the header is read")
            let info = try ImageCodec.readInfo(input)
            let kept = try XCTUnwrap(try shelved(input), "\(name): the header read keeps its document")
            XCTAssertEqual(try ImageCodec.readInfo(input), info, "\(name): the header again, from the kept document")
            XCTAssertEqual(try shelved(input), kept, "\(name): not parsed again")

            var decoder: ImageDecoder? = try ImageDecoder(input)
            XCTAssertNil(try shelved(input), "\(name): lent to the open decoder")
            let image = try rows(of: try XCTUnwrap(decoder))
            decoder = nil
            XCTAssertEqual(try shelved(input), kept, "\(name): the same document given back once the decoder goes")

            let fresh = try drawn(ImageInput(bytes))
            XCTAssertEqual(image.size, fresh.size, name)
            XCTAssertTrue(image.pixels == fresh.pixels, "\(name): drawn from the kept document as from a fresh parse")
        }
        XCTAssertNil(ImageInput(try Fixtures.bytes("gray8.png")).documents, "other formats keep nothing")
    }

    /// One document serves every page in turn (as `pages: all` reads them) at any DPI or size,
    /// each exactly as a decoder of the page alone draws it.
    func testEveryPageOfOneKeptDocumentIsDrawnAsAlone() throws {
        let bytes = try Fixtures.bytes("pages.pdf")
        let input = ImageInput(bytes)
        _ = try ImageCodec.readInfo(input)
        let kept = try XCTUnwrap(try shelved(input))
        let pages = [VectorPage(page: 2), VectorPage(page: 1, dpi: 72), VectorPage(page: 2, renderSize: Size(width: 90, height: 120)),
                     VectorPage(page: 1)]
        for page in pages {
            let image = try drawn(input, page)
            let alone = try drawn(ImageInput(bytes), page)
            XCTAssertEqual(image.size, alone.size, "\(page)")
            XCTAssertTrue(image.pixels == alone.pixels, "page \(page.page) at \(image.size)")
        }
        XCTAssertEqual(try shelved(input), kept, "every page drawn from the one document")
        let sizes = try pages.map { try drawn(input, $0).size }
        XCTAssertEqual(sizes, [Size(width: 225, height: 300), Size(width: 144, height: 108), Size(width: 90, height: 120),
                               Size(width: 300, height: 225)])
    }

    /// Two decoders of one input at once: the second parses its own document (one is never used
    /// by two readers), both draw right, and one document is kept afterwards.
    func testTwoDecodersAtOnceEachHaveADocument() throws {
        let bytes = try Fixtures.bytes("pages.pdf")
        let input = ImageInput(bytes)
        _ = try ImageCodec.readInfo(input)
        var first: ImageDecoder? = try ImageDecoder(input)
        var options = DecodeOptions()
        options.vector = VectorPage(page: 2)
        var second: ImageDecoder? = try ImageDecoder(input, options: options)
        let (a, b) = (try rows(of: try XCTUnwrap(second)), try rows(of: try XCTUnwrap(first)))
        XCTAssertTrue(a.pixels == (try drawn(ImageInput(bytes), VectorPage(page: 2))).pixels)
        XCTAssertTrue(b.pixels == (try drawn(ImageInput(bytes))).pixels)
        first = nil
        second = nil
        let shelf = try XCTUnwrap(input.documents)
        XCTAssertNotNil(shelf.take(), "a document kept")
        XCTAssertNil(shelf.take(), "only one: the other closed")
    }

    /// A file that cannot be parsed fails the header and every decoder with the same code, and
    /// nothing is kept; a decoder refused after a good header (a page beyond the last, a page
    /// over the pixel limit) gives the document back.
    func testFailuresKeepNothingBrokenAndGiveTheDocumentBack() throws {
        let pdf = try Fixtures.bytes("pages.pdf"), svg = try Fixtures.bytes("shapes.svg")
        let broken: [(String, [UInt8], ErrorCode)] = [
            ("a PDF cut in half", Array(pdf.prefix(pdf.count / 2)), .truncated),
            ("a PDF whose objects are overwritten", Array(pdf.prefix(9)) + [UInt8](repeating: 0x20, count: pdf.count - 20) + Array(pdf.suffix(11)),
             .corrupt),
            ("an SVG cut short", Array(svg.prefix(svg.count - 40)), .truncated),
            ("an SVG with no size", Array(#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>"#.utf8), .unsupported),
        ]
        for (what, bytes, code) in broken {
            let input = ImageInput(bytes)
            XCTAssertThrowsError(try ImageCodec.readInfo(input), what) { XCTAssertEqual(($0 as? CodecError)?.code, code, "\(what): \($0)") }
            XCTAssertNil(try shelved(input), "\(what): nothing kept")
            for _ in 0..<2 {
                XCTAssertThrowsError(try ImageDecoder(input), what) { XCTAssertEqual(($0 as? CodecError)?.code, code, "\(what): \($0)") }
            }
            XCTAssertNil(try shelved(input), "\(what): still nothing kept")
        }

        let input = ImageInput(pdf)
        _ = try ImageCodec.readInfo(input)
        let kept = try shelved(input)
        var options = DecodeOptions()
        options.vector = VectorPage(page: 3)
        XCTAssertThrowsError(try ImageDecoder(input, options: options)) { XCTAssertEqual(($0 as? CodecError)?.code, .unsupported) }
        options = DecodeOptions(limits: DecodeLimits(maxPixels: 1000))
        XCTAssertThrowsError(try ImageDecoder(input, options: options)) { XCTAssertEqual(($0 as? CodecError)?.code, .tooLarge) }
        XCTAssertEqual(try shelved(input), kept, "given back after each refusal")
        XCTAssertEqual(try drawn(input).size, Size(width: 300, height: 225), "and still drawn from")
    }
}
