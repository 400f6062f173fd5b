@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// blend with a gradient layer: the gradient filters' keys (start, end; center, radius0,
/// radius1, focus; stops, extend) and their defaults, combined by the blend's mode. Checked
/// against the W3C formulas on known pixels (within 1/255: cairo paints the gradient in 8 bits).
final class BlendGradientTests: XCTestCase {
    let grey = Image(width: 101, height: 21) { _, _ in Pixel(0.6, 0.6, 0.6, 1) }

    /// Multiply by a white → black ramp across: B·Cs, Cs falling from 1 to 0.
    func testMultiplyByALinearRamp() throws {
        let out = try ShapeReferences.apply(
            "blend mode=multiply gradient=linear start=[0.5,0] end=[100.5,0] stops=[{at=0, color=white}, {at=1, color=black}]", to: grey)
        for x in [0, 25, 50, 75, 100] {
            let cs = 1 - Float(x) / 100
            XCTAssertEqual(out[x, 10][0], 0.6 * cs, accuracy: 1.01 / 255, "x = \(x)")
            XCTAssertEqual(out[x, 10][3], 1)
        }
    }

    /// Screen with a radial gradient from white at the centre to black at radius 40: at the
    /// centre 1 − (1 − B)(1 − 1) = 1; beyond the radius (padded black) the image.
    func testScreenWithARadialGradientAndTheGradientFiltersDefaults() throws {
        let out = try ShapeReferences.apply(
            "blend mode=screen gradient=radial center=[50.5,10.5] radius1=40 stops=[{at=0, color=white}, {at=1, color=black}]", to: grey)
        XCTAssertEqual(out[50, 10][0], 1, accuracy: 1.01 / 255)
        XCTAssertEqual(out[5, 10][0], 0.6, accuracy: 1.01 / 255)
        let mid = 0.5 as Float  // halfway out: Cs = 0.5, screen = B + Cs − B·Cs
        XCTAssertEqual(out[70, 10][0], 0.6 + mid - 0.6 * mid, accuracy: 1.01 / 255)
        // Without stops, the gradient filters' default (black to transparent, from top to
        // bottom) applies: normal blending darkens the top row fully.
        let fade = try ShapeReferences.apply("blend gradient=linear", to: grey)
        // Row y is sampled at y + 0.5: black at alpha 1 − t, t = (y + 0.5) / 21.
        XCTAssertEqual(fade[50, 0][0], 0.6 * 0.5 / 21, accuracy: 1.01 / 255)
        XCTAssertEqual(fade[50, 20][0], 0.6 * 20.5 / 21, accuracy: 1.01 / 255)
    }

    func testGradientKeysAreCheckedAtLoad() {
        let error = ShapeReferences.loadError
        XCTAssertEqual(error("blend gradient=linear center=[1,1]"), "center: blend: belongs to a radial gradient, not linear")
        XCTAssertEqual(error("blend color=red stops=[{at=0, color=red}]"),
                       "stops: blend: is a gradient layer's key: give gradient: linear or radial with it")
        XCTAssertEqual(error("blend color=red gradient=radial"), "blend: give the layer as one of color, image or gradient")
        XCTAssertNotNil(error("blend gradient=conic"))
    }
}
