@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// Coordinates and lengths take px or % of the image everywhere: points (x of the width, y of
/// the height), corner and arc radii, line widths and dashes (% of the shorter side), a pattern
/// cell's size, nine-slice insets, a text outline (% of the font size). Each % form must give
/// the same pixels as the px it stands for, on a 80 × 40 image (so the two axes differ).
final class LengthPercentTests: XCTestCase {
    let black = Image(width: 80, height: 40) { _, _ in Pixel(0, 0, 0, 1) }
    var white: Image { Image(width: 80, height: 40) { _, _ in Pixel(1, 1, 1, 1) } }

    private func assertSame(_ percent: String, _ pixels: String, on image: Image? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try ShapeReferences.apply(percent, to: image ?? black), b = try ShapeReferences.apply(pixels, to: image ?? black)
        XCTAssertEqual(a.pixels, b.pixels, percent, file: file, line: line)
        // And the shapes drew something, so the comparison is not of two untouched images.
        XCTAssertNotEqual(a.pixels, (image ?? black).pixels, percent, file: file, line: line)
    }

    func testShapePointsRadiiLineWidthsAndDashes() throws {
        try assertSame("draw shapes=[{shape=polygon, points=[10%,25%,50%,10%,75%,90%], fill=white}]",
                       "draw shapes=[{shape=polygon, points=[8,10,40,4,60,36], fill=white}]")
        try assertSame("draw shapes=[{shape=polyline, points=[5%,50%,95%,50%], stroke=white, line_width=10%, dash=[25%,10%]}]",
                       "draw shapes=[{shape=polyline, points=[4,20,76,20], stroke=white, line_width=4, dash=[10,4]}]")
        try assertSame("draw shapes=[{shape=rounded_rect, x=10%, y=10%, width=80%, height=80%, radius=[25%,0,10%,0], fill=white}]",
                       "draw shapes=[{shape=rounded_rect, x=8, y=4, width=64, height=32, radius=[10,0,4,0], fill=white}]")
        try assertSame("draw shapes=[{shape=arc, center=[40,20], radius=[40%], stroke=white, line_width=5%}]",
                       "draw shapes=[{shape=arc, center=[40,20], radius=[16], stroke=white, line_width=2}]")
    }

    func testClipPolygonAndRadii() throws {
        try assertSame("clip shape=polygon points=[0,0,100%,0,50%,100%] outside=black", "clip shape=polygon points=[0,0,80,0,40,40] outside=black",
                       on: white)
        try assertSame("clip shape=rounded_rect radius=50% outside=black", "clip shape=rounded_rect radius=20 outside=black", on: white)
    }

    func testPatternCellSizeAndNineSliceInsets() throws {
        try assertSame("fill_pattern size=[25%,50%] shapes=[{shape=rect, width=50%, height=50%, fill=white}]",
                       "fill_pattern size=[20,20] shapes=[{shape=rect, width=10, height=10, fill=white}]")
        let ramp = Image(width: 80, height: 40) { x, y in Pixel(Float(x) / 80, Float(y) / 40, 0.5, 1) }
        try assertSame("nine_slice width=200 height=90 insets=[25%,10%,50%,5%]", "nine_slice width=200 height=90 insets=[10,8,20,4]", on: ramp)
    }

    /// A text outline in % of the font size: 10 % of 20 px is 2 px.
    func testTextOutlineInPercentOfTheFontSize() throws {
        try assertSame("draw_text text=Hi size=20 stroke=red stroke_width=10% gravity=center",
                       "draw_text text=Hi size=20 stroke=red stroke_width=2 gravity=center")
    }

    func testListsOfLengthsAreCheckedAtLoad() {
        let error = ShapeReferences.loadError
        XCTAssertEqual(error("draw shapes=[{shape=polygon, points=[1,2,3x,4,5,6]}]"),
                       #"draw.shapes[0].points: expected a list of lengths, each in px or %, got ["1", "2", "3x", "4", "5", "6"]"#)
        XCTAssertEqual(error("draw shapes=[{shape=rect, line_width=-1%}]"), "shapes[0].line_width: draw: line_width must be at least 0, got -1%")
        XCTAssertNotNil(error("nine_slice insets=[10,150%,1,1]"))
    }
}
