@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// fill_pattern inside a shape: a white cell over black, limited to an ellipse, is that
/// ellipse's coverage, so it is compared with the same ellipse rendered by librsvg (the clip
/// tests' tolerances: mean below 0.5/255, no pixel more than 0.15 apart).
final class PatternInsideShapeTests: XCTestCase {
    let (w, h) = (64, 48)

    func testAPatternInsideAnEllipseIsTheEllipsesCoverage() throws {
        let black = Image(width: w, height: h) { _, _ in Pixel(0, 0, 0, 1) }
        let out = try ShapeReferences.apply(
            "fill_pattern size=[4,4] shapes=[{shape=rect, fill=white}] inside={shape=ellipse, center=[30,22], radii=[25,17.5]}", to: black)
        let svg = try ShapeReferences.svg(#"<ellipse cx="30" cy="22" rx="25" ry="17.5" fill="white"/>"#, width: w, height: h)
        let s = ShapeReferences.compare(ShapeReferences.grey(out), svg)
        XCTAssertLessThan(s.mean, 0.5 / 255)
        XCTAssertLessThan(s.max, 0.15)
    }

    /// The pattern shows through the star's points but not its even-odd pentagon, and the
    /// image outside the shape is untouched.
    func testInsideTakesTheShapesFillRule() throws {
        let grey = Image(width: w, height: h) { _, _ in Pixel(0.25, 0.25, 0.25, 1) }
        let star = "points=[32,2,44,40,12,16,52,16,20,40]"
        let out = try ShapeReferences.apply(
            "fill_pattern size=[2,2] shapes=[{shape=rect, width=1, height=1, fill=white}] inside={shape=polygon, \(star), fill_rule=even_odd}",
            to: grey)
        XCTAssertEqual(out[32, 6], Pixel(1, 1, 1, 1), "a point of the star, on the cell's white pixel")
        XCTAssertEqual(out[33, 6], grey[33, 6], "the cell's transparent pixel lets the image through")
        XCTAssertEqual(out[32, 24], grey[32, 24], "the pentagon is outside under even-odd")
        XCTAssertEqual(out[2, 44], grey[2, 44], "outside the star")
    }

    func testInsideIsCheckedAtLoad() {
        let error = ShapeReferences.loadError
        XCTAssertEqual(error("fill_pattern size=[4,4] shapes=[{shape=rect}] inside={shape=polygon, points=[1,2]}"),
                       "inside.points: fill_pattern: give x, y pairs, at least 3 points; got 2 numbers")
        XCTAssertEqual(error("fill_pattern size=[4,4] shapes=[{shape=rect}] inside={shape=ellipse, fill=red}"),
                       #"fill_pattern.inside.fill: unknown key "fill" (known: shape, points, x, y, width, height, radius, center, radii, start, end, d, fill_rule)"#)
    }
}
