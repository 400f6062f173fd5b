@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// draw_text: the text is where it was placed (the bounding box of the drawn pixels),
/// placeholders are filled per file, and bad placeholders are refused when the chain is read.
final class DrawTextTests: XCTestCase {
    let black = Image(width: 240, height: 90, fill: Pixel(0, 0, 0, 1))

    /// The bounding box of the pixels that differ from `background`.
    private func inked(_ image: Image, background: Pixel = Pixel(0, 0, 0, 1)) -> Rect? {
        var box: Rect?
        for y in 0..<image.height { for x in 0..<image.width where image[x, y] != background {
            box = (box ?? Rect(x: x, y: y, width: 1, height: 1)).union(Rect(x: x, y: y, width: 1, height: 1))
        } }
        return box
    }

    private func filled(_ text: String, facts: InputFacts) throws -> Image {
        let resolved = try ChainSyntax.parse(text, registry: .shipped).resolve(seed: 1, facts: facts)
        return try (resolved[0].filter as! any RegionFilter).apply(to: black, executor: StripExecutor(bandHeight: 5, concurrency: 2))
    }

    func testTextIsDrawnWhereItIsPlaced() throws {
        let nw = try XCTUnwrap(inked(try draw("draw_text text=Hello size=24 gravity=north_west margin=10", on: black)))
        XCTAssertTrue((10...13).contains(nw.x) && (10...17).contains(nw.y), "north_west: \(nw)")
        XCTAssertTrue((40...80).contains(nw.width) && (14...26).contains(nw.height), "24 px text 'Hello': \(nw)")
        let se = try XCTUnwrap(inked(try draw("draw_text text=Hello size=24 margin=10", on: black)))
        XCTAssertTrue((225...230).contains(se.maxX) && (70...80).contains(se.maxY), "south_east by default: \(se)")
        let at = try XCTUnwrap(inked(try draw("draw_text text=Hello size=24 at=[100,30]", on: black)))
        XCTAssertTrue((100...103).contains(at.x) && (30...37).contains(at.y), "at: \(at)")
        // A background box covers the text's box exactly, padding included.
        let boxed = try XCTUnwrap(inked(try draw("draw_text text=Hello size=24 at=[20,20] background=#ff0000 padding=6", on: black)))
        XCTAssertEqual(boxed.x, 20)
        XCTAssertEqual(boxed.y, 20)
        XCTAssertGreaterThan(boxed.width, nw.width + 11)
    }

    /// The colour, the opacity and the outline: white text is white inside its strokes; an
    /// outline puts its own colour around them.
    func testColourOpacityAndStroke() throws {
        let white = try draw("draw_text text=IIII size=40 at=[10,10] font=\"DejaVu Sans Bold\"", on: black)
        XCTAssertEqual(white.pixels.map { $0[0] }.max(), 1, "full white inside the letters")
        let faint = try draw("draw_text text=IIII size=40 at=[10,10] opacity=0.5 font=\"DejaVu Sans Bold\"", on: black)
        XCTAssertEqual(faint.pixels.map { $0[0] }.max()!, 0.5, accuracy: 1 / 255)
        let outlined = try draw("draw_text text=IIII size=40 at=[10,10] stroke=#00ff00 stroke_width=3", on: black)
        XCTAssertTrue(outlined.pixels.contains { $0[1] > 0.9 && $0[0] < 0.1 }, "a green outline")
    }

    func testPlaceholdersAreFilledPerFile() throws {
        let facts = InputFacts(["stem": "IMG_0042", "name": "IMG_0042.jpg", "date": "2026-11-24", "exif.Artist": "Ann Example",
                                "exif.Copyright": "© 2026 Ann", "exif.DateTimeOriginal": "2026:11:01 10:00:00"])
        for (template, literal) in [("{stem}", "IMG_0042"), ("© {exif.Artist}", "© Ann Example"), ("{exif.Copyright} {date}", "© 2026 Ann 2026-11-24"),
                                    ("{exif.DateTimeOriginal}", "2026:11:01 10:00:00"), ("{name} {{x}}", "IMG_0042.jpg {x}")] {
            let viaFacts = try filled("draw_text text=\"\(template)\" size=20 at=[5,5]", facts: facts)
            let written = try draw("draw_text text=\"\(literal.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}"))\" size=20 at=[5,5]", on: black)
            XCTAssertEqual(viaFacts, written, template)
        }
        // A file without the field: the placeholder is empty, not written out.
        let missing = try filled("draw_text text=\"{exif.Artist}\" size=20", facts: InputFacts(["stem": "x"]))
        XCTAssertEqual(missing, black)
        XCTAssertNotEqual(try filled("draw_text text=\"{stem}\" size=20", facts: facts), try filled("draw_text text=\"{stem}\" size=20", facts: InputFacts(["stem": "other"])))
    }

    func testUnknownPlaceholdersAreRefusedWhenTheChainIsRead() {
        XCTAssertThrowsError(try ChainSyntax.parse("draw_text text=\"{exif.Artsit}\"", registry: .shipped)) {
            XCTAssertEqual("\($0)", "draw_text.text: unknown placeholder {exif.Artsit} (did you mean \"exif.Artist\"?)")
        }
        XCTAssertThrowsError(try ChainSyntax.parse("draw_text text=\"{stem\"", registry: .shipped)) {
            XCTAssertTrue("\($0)".contains("unclosed {"), "\($0)")
        }
    }
}
