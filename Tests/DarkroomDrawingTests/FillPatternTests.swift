@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// fill_pattern: the cell repeats from its offset, shapes are clipped to the cell, and the
/// pattern is composited like a draw.
final class FillPatternTests: XCTestCase {
    let black = Image(width: 40, height: 30) { _, _ in Pixel(0, 0, 0, 1) }

    func testTheCellRepeatsFromTheOffset() throws {
        // A 10×8 cell with a 5×4 white square in its top-left corner, the pattern moved by (3, 2).
        let out = try ShapeReferences.apply(
            "fill_pattern size=[10,8] offset=[3,2] shapes=[{shape=rect, x=0, y=0, width=5, height=4, fill=white}]", to: black)
        for y in 0..<30 { for x in 0..<40 {
            let cx = ((x - 3) % 10 + 10) % 10, cy = ((y - 2) % 8 + 8) % 8
            XCTAssertEqual(out[x, y][0], cx < 5 && cy < 4 ? 1 : 0, "(\(x), \(y))")
        } }
    }

    /// A shape larger than the cell is cut at the cell's edge, as CGPattern cells are.
    func testShapesAreClippedToTheCell() throws {
        let out = try ShapeReferences.apply(
            "fill_pattern size=[10,10] shapes=[{shape=rect, x=5, y=0, width=50, height=10, fill=white}]", to: black)
        XCTAssertEqual(out[2, 2][0], 0, "the rectangle does not spill into the next cell's left half")
        XCTAssertEqual(out[7, 2][0], 1)
        XCTAssertEqual(out[12, 2][0], 0)
    }

    func testOpacityAndBlend() throws {
        let half = try ShapeReferences.apply("fill_pattern size=[4,4] opacity=0.5 shapes=[{shape=rect, fill=white}]", to: black)
        XCTAssertEqual(half[9, 9][0], 0.5, accuracy: 1e-6)
        let grey = Image(width: 8, height: 8) { _, _ in Pixel(0.4, 0.4, 0.4, 1) }
        let multiplied = try ShapeReferences.apply("fill_pattern size=[4,4] blend=multiply shapes=[{shape=rect, fill=#808080}]", to: grey)
        XCTAssertEqual(multiplied[5, 5][0], 0.4 * 128 / 255, accuracy: 1e-5)
    }

    func testTheCellIsCheckedAtLoad() {
        let error = ShapeReferences.loadError
        XCTAssertNotNil(error("fill_pattern size=[10,10]"), "neither shapes nor an image")
        XCTAssertEqual(error("fill_pattern size=[0,10] shapes=[{shape=rect}]"),
                       "size: fill_pattern: give the cell's [width, height] in px (each from 1 to 4096) or %")
        XCTAssertEqual(error("fill_pattern size=[10,10] shapes=[{shape=polygon, points=[1,2]}]"),
                       "shapes[0].points: fill_pattern: give x, y pairs, at least 3 points; got 2 numbers")
    }
}
