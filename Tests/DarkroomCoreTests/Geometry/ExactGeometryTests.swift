@testable import DarkroomCore
import XCTest

/// pad, flip, rotate (quarter turns) and tile move whole pixels, so they must equal libvips'
/// `embed`, `flip`, `rot` and `replicate` exactly: the same 8-bit values (float difference below 0.01/255) on 8-bit images (every input
/// value is a whole number of 255ths, so the PPM round trip loses nothing).
final class ExactGeometryTests: XCTestCase {
    /// Every pixel distinct and a whole number of 255ths; odd sizes, so a wrong centre shows.
    let input = Image(width: 13, height: 9) { x, y in
        Pixel(Float(x * 19 % 256) / 255, Float(y * 27 % 256) / 255, Float((x * y * 7 + 11) % 256) / 255, 1)
    }

    private func ours(_ chain: String) throws -> Image {
        try regionFilter(chain).apply(to: input, executor: smallTiles)
    }

    private func assertSame(_ chain: String, _ vips: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try ExternalTool.vips.run(input, vips)
        let out = try ours(chain)
        XCTAssertEqual(out.size, reference.size, chain, file: file, line: line)
        guard out.size == reference.size else { return }
        // Same bytes: the float values may differ by a rounding of k/255 (6e-8), never by a level.
        XCTAssertLessThan(ImageComparison.maxDifference(out, reference), 0.01 / 255,
                          "\(chain) differs from vips \(vips.joined(separator: " "))", file: file, line: line)
    }

    func testPadEqualsVipsEmbed() throws {
        try assertSame("pad all=4 color=#336699", ["embed", "$IN", "$OUT", "4", "4", "21", "17", "--extend", "background",
                                                    "--background", "51 102 153"])
        try assertSame("pad top=1 right=5 bottom=0 left=3 color=white",
                       ["embed", "$IN", "$OUT", "3", "1", "21", "10", "--extend", "background", "--background", "255 255 255"])
    }

    func testPadPercentagesReferToHeightAndWidth() throws {
        // 50% of the height (9) is 4.5 → 5 rows; 100% of the width is 13 columns.
        XCTAssertEqual(try ours("pad top=50% left=100%").size, Size(width: 26, height: 14))
    }

    func testPadKeepsTheImageTransparencyAndFillsOnlyTheBorder() throws {
        let clear = Image(width: 3, height: 2) { x, _ in Pixel(0.2, 0.1, 0, 0.5) * Float(x) / 2 }
        let out = try regionFilter("pad all=1 color=red").apply(to: clear, executor: smallTiles)
        XCTAssertEqual(out[0, 0], Pixel(1, 0, 0, 1))
        for y in 0..<2 { for x in 0..<3 { XCTAssertEqual(out[x + 1, y + 1], clear[x, y]) } }
    }

    func testFlipEqualsVipsFlip() throws {
        try assertSame("flip direction=horizontal", ["flip", "$IN", "$OUT", "horizontal"])
        try assertSame("flip direction=vertical", ["flip", "$IN", "$OUT", "vertical"])
    }

    func testQuarterTurnsEqualVipsRot() throws {
        try assertSame("rotate angle=90deg", ["rot", "$IN", "$OUT", "d90"])
        try assertSame("rotate angle=180deg", ["rot", "$IN", "$OUT", "d180"])
        try assertSame("rotate angle=270deg", ["rot", "$IN", "$OUT", "d270"])
        try assertSame("rotate angle=-90deg", ["rot", "$IN", "$OUT", "d270"])
        try assertSame("rotate angle=450deg", ["rot", "$IN", "$OUT", "d90"])
    }

    /// A free angle grows the canvas to the turned image's bounding box, as transform does.
    func testAFreeAngleGrowsTheCanvas() throws {
        let turned = try ours("rotate angle=30deg background=white")
        let expected = try regionFilter("transform rotate=30deg canvas=grow background=white").apply(to: input, executor: smallTiles)
        XCTAssertEqual(turned, expected)
        XCTAssertGreaterThan(turned.width, input.width)
        XCTAssertEqual(turned[0, 0], Pixel(1, 1, 1, 1), "the uncovered corner takes the background")
        XCTAssertTrue(try makeFilter("rotate angle=0", as: RotateFilter.self).isIdentity)
        XCTAssertNotNil(try makeFilter("rotate angle=90deg", as: RotateFilter.self).exact)
        XCTAssertNil(try makeFilter("rotate angle=90", as: RotateFilter.self).exact, "a bare 90 is radians")
    }

    func testTileEqualsVipsReplicateAndMirrorEmbed() throws {
        try assertSame("tile columns=3 rows=2", ["replicate", "$IN", "$OUT", "3", "2"])
        try assertSame("tile columns=4 rows=3 mode=mirror", ["embed", "$IN", "$OUT", "0", "0", "52", "27", "--extend", "mirror"])
    }

    func testTileCountsAreCheckedAtLoad() {
        XCTAssertNotNil(buildError("tile columns=0"))
        XCTAssertNotNil(buildError("tile rows=1001"))
        XCTAssertNotNil(buildError("tile mode=wrap"))
        XCTAssertNotNil(buildError("pad all=-1"))
        XCTAssertNotNil(buildError("flip direction=diagonal"))
    }
}
