import DarkroomCodecs
@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest

/// Gradients at their stops (exact colours where the stops lie) and against the same gradients
/// written as SVG and rendered by librsvg's rsvg-convert.
final class GradientTests: XCTestCase {
    let white = Image(width: 101, height: 41, fill: Pixel(1, 1, 1, 1))

    /// A horizontal red → blue gradient: red at x = 10, blue at x = 90, the mix halfway, the end
    /// colours padded beyond (within 1/255: cairo's 8 bits).
    func testLinearGradientHasTheStopColoursAtTheStops() throws {
        let out = try draw("linear_gradient start=[10.5,0] end=[90.5,0] stops=[{at=0, color=red}, {at=1, color=blue}]", on: white)
        for (x, expected) in [(10, Pixel(1, 0, 0, 1)), (90, Pixel(0, 0, 1, 1)), (50, Pixel(0.5, 0, 0.5, 1)),
                              (0, Pixel(1, 0, 0, 1)), (100, Pixel(0, 0, 1, 1))] {
            for c in 0..<4 { XCTAssertEqual(out[x, 20][c], expected[c], accuracy: 1.01 / 255, "x = \(x), channel \(c)") }
        }
        let none = try draw("linear_gradient start=[10.5,0] end=[90.5,0] extend=none stops=[{at=0, color=red}, {at=1, color=blue}]", on: white)
        XCTAssertEqual(none[2, 20], Pixel(1, 1, 1, 1), "extend none leaves the image beyond the ends")
    }

    /// Stops composited with opacity and a blend mode: a half-transparent black over white at
    /// opacity 0.5 is 75 % white; multiply by red keeps only the red channel.
    func testOpacityAndBlendApplyToTheGradient() throws {
        let half = try draw("linear_gradient stops=[{at=0, color=#00000080}, {at=1, color=#00000080}] opacity=0.5", on: white)
        XCTAssertEqual(half[50, 20][0], 1 - 0.5 * 128 / 255, accuracy: 1.01 / 255)
        let red = try draw("linear_gradient stops=[{at=0, color=red}] blend=multiply", on: Image(width: 9, height: 9, fill: Pixel(0.5, 0.6, 0.7, 1)))
        XCTAssertEqual(red[4, 4], Pixel(0.5, 0, 0, 1))
    }

    /// The same linear and radial gradients as SVG, rendered by rsvg-convert: within 2/255.
    func testGradientsMatchSVGRenderedByLibrsvg() throws {
        let folder = TemporaryFolder()
        let cases: [(chain: String, svg: String)] = [
            ("linear_gradient start=[5,3] end=[95,38] stops=[{at=0, color=#ff8000}, {at=0.4, color=#20c040}, {at=1, color=#3030ff}] extend=pad",
             ##"<linearGradient id="g" gradientUnits="userSpaceOnUse" x1="5" y1="3" x2="95" y2="38" spreadMethod="pad"><stop offset="0" stop-color="#ff8000"/><stop offset="0.4" stop-color="#20c040"/><stop offset="1" stop-color="#3030ff"/></linearGradient>"##),
            ("linear_gradient start=[20,0] end=[40,0] stops=[{at=0, color=black}, {at=1, color=white}] extend=reflect",
             ##"<linearGradient id="g" gradientUnits="userSpaceOnUse" x1="20" y1="0" x2="40" y2="0" spreadMethod="reflect"><stop offset="0" stop-color="black"/><stop offset="1" stop-color="white"/></linearGradient>"##),
            ("radial_gradient center=[50,20] radius1=30 focus=[40,15] stops=[{at=0, color=yellow}, {at=1, color=#800080}]",
             ##"<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="50" cy="20" r="30" fx="40" fy="15"><stop offset="0" stop-color="yellow"/><stop offset="1" stop-color="#800080"/></radialGradient>"##),
            ("radial_gradient center=[50,20] radius1=15 extend=repeat stops=[{at=0, color=white}, {at=1, color=#004080}]",
             ##"<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="50" cy="20" r="15" spreadMethod="repeat"><stop offset="0" stop-color="white"/><stop offset="1" stop-color="#004080"/></radialGradient>"##),
        ]
        for (i, c) in cases.enumerated() {
            let ours = try draw(c.chain, on: white)
            let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="101" height="41"><defs>"## + c.svg
                + ##"</defs><rect width="101" height="41" fill="white"/><rect width="101" height="41" fill="url(#g)"/></svg>"##
            let path = try ReferenceTool.file(Array(svg.utf8), named: "g\(i).svg", in: folder)
            _ = try ReferenceTool.output(("rsvg-convert", "librsvg2-bin"), ["-o", folder.file("g\(i).png"), path])
            let reference = try ImageCodec.decode(try folder.bytes("g\(i).png")).image
            XCTAssertLessThanOrEqual(worstDifference(ours, reference), 2, c.chain)
        }
    }

    func testStopErrorsSayWhereInTheList() {
        XCTAssertThrowsError(try ChainSyntax.parse("linear_gradient stops=[{at=0, color=red}, {at=2, color=blue}]", registry: .shipped)) {
            XCTAssertTrue("\($0)".contains("stops[1].at"), "\($0)")
        }
        XCTAssertThrowsError(try ChainSyntax.parse("radial_gradient stops=[]", registry: .shipped)) {
            XCTAssertTrue("\($0)".contains("at least one stop"), "\($0)")
        }
    }
}
