@testable import DarkroomCore
import XCTest

final class DropShadowTests: XCTestCase {
    /// A 40×30 image: opaque white, with a half-transparent blue band in rows 10–19.
    private func card() -> Image {
        Image(width: 40, height: 30) { _, y in (10..<20).contains(y) ? Pixel(0, 0, 0.5, 0.5) : Pixel(1, 1, 1, 1) }
    }

    func testGrowMakesRoomForTheWholeShadow() throws {
        let f = try regionFilter("drop_shadow offset=[-25,15] blur=2 canvas=grow")
        let out = try f.apply(to: card(), executor: smallTiles)
        // The blur reaches floor(2 · 3.717) = 7 px: the shadow spans x −32…14, y 8…51.
        XCTAssertEqual(out.size, Size(width: 72, height: 52))
        XCTAssertEqual(f.outputSize(for: card().size), out.size)
        // The image keeps its pixels, moved by the new origin (32, 0).
        XCTAssertEqual(out[32, 0], Pixel(1, 1, 1, 1))
        XCTAssertEqual(out[32 + 39, 29], Pixel(1, 1, 1, 1))
        XCTAssertEqual(out[32 + 39, 0], Pixel(1, 1, 1, 1))
        // Nothing at the far corners: neither image nor shadow reaches them.
        XCTAssertEqual(out[71, 51], .zero)
        XCTAssertEqual(out[0, 0], .zero)
    }

    func testShadowFarFromTheImageIsTheColourTimesTheAlpha() throws {
        let f = try regionFilter("drop_shadow offset=[-25,15] blur=1 color=[1,0,0,0.5] canvas=grow")
        let out = try f.apply(to: card(), executor: smallTiles)
        // blur 1 reaches 3 px, so the canvas grows 28 px left and the shadow's top-left lands at (3, 15).
        XCTAssertEqual(out.size, Size(width: 68, height: 48))
        // Output (18, 40) is left of the image (which starts at x = 28) and in the shadow of image
        // pixel (15, 25), whose 7×7 neighbourhood is opaque: the flat colour, premultiplied.
        XCTAssertLessThan(ImageComparison.distance(out[18, 40], Pixel(0.5, 0, 0, 0.5)), 1e-5)
        // The shadow of image pixel (15, 15), inside the half-transparent band: half of that.
        XCTAssertLessThan(ImageComparison.distance(out[18, 30], Pixel(0.25, 0, 0, 0.25)), 1e-5)
    }

    func testShadowIsCompositedUnderTheImage() throws {
        let f = try regionFilter("drop_shadow offset=[-5,15] blur=0 canvas=same")
        let image = card()
        let out = try f.apply(to: image, executor: smallTiles)
        XCTAssertEqual(out.size, image.size)
        // Opaque pixels hide the shadow.
        XCTAssertEqual(out[20, 28], Pixel(1, 1, 1, 1))
        // Half-transparent band over a full shadow (image row 0 cast to row 15, opaque):
        // source-over: p + s·(1 − αp) with s = (0, 0, 0, 1/3).
        let s = Pixel(0, 0, 0, 1.0 / 3)
        XCTAssertLessThan(ImageComparison.distance(out[20, 15], (Pixel(0, 0, 0.5, 0.5) + s * 0.5)), 1e-6)
        // Band rows 10–14 lie above the shadow (which starts at row 15): unchanged.
        XCTAssertEqual(out[20, 12], Pixel(0, 0, 0.5, 0.5))
        // The 5 rightmost columns: the shadow moved 5 px left, nothing casts there.
        XCTAssertEqual(out[37, 17], Pixel(0, 0, 0.5, 0.5))
    }

    func testCanvasSameCutsTheShadowAndPercentOffsetsScale() throws {
        let f = try regionFilter("drop_shadow offset=[50%,-50%] blur=1")
        XCTAssertEqual(f.outputSize(for: Size(width: 40, height: 30)), Size(width: 40, height: 30))
        let grow = try regionFilter("drop_shadow offset=[50%,-50%] blur=0 canvas=grow")
        // 20 px right, 15 px up of a 40×30 image.
        XCTAssertEqual(grow.outputSize(for: Size(width: 40, height: 30)), Size(width: 60, height: 45))
    }

    func testShadowOfATransparentImageOnlyBlurs() throws {
        // Blur spreads the shadow symmetrically: the shadow of a small square, blurred, is
        // symmetric about the offset square's centre.
        var image = Image(width: 40, height: 40, fill: .zero)
        for y in 10..<14 { for x in 10..<14 { image[x, y] = Pixel(1, 1, 1, 1) } }
        let out = try regionFilter("drop_shadow offset=[10,10] blur=2 color=black").apply(to: image, executor: smallTiles)
        // Shadow square at 20…23; centre 21.5.
        for d in 0..<6 {
            XCTAssertEqual(out[21 - d, 21][3], out[22 + d, 21][3], accuracy: 1e-6)
            XCTAssertEqual(out[21, 21 - d][3], out[21, 22 + d][3], accuracy: 1e-6)
        }
        XCTAssertLessThan(out[21, 21][3], 1, "blurred")
        // The whole shadow lies on the canvas, so its alpha sums to the square's 16 (the image's own
        // opaque square adds 16 more; it hides only the shadow's faint corner at (13, 13)).
        let total = out.pixels.reduce(Float(0)) { $0 + $1[3] }
        XCTAssertEqual(total, 32, accuracy: 1e-3)
        XCTAssertEqual(out[5, 30], .zero)
    }

    func testDefaultsAndIdentity() throws {
        let f = try regionFilter("drop_shadow")
        guard let shadow = f as? DropShadowFilter else { return XCTFail("not a DropShadowFilter") }
        XCTAssertEqual(shadow.color, RGBA(0, 0, 0, 1.0 / 3))
        XCTAssertEqual(shadow.offset.x, Length(-25))
        XCTAssertEqual(shadow.offset.y, Length(15))
        XCTAssertFalse(shadow.growsCanvas)
        XCTAssertTrue(try regionFilter("drop_shadow color=transparent").isIdentity)
        XCTAssertFalse(try regionFilter("drop_shadow color=transparent canvas=grow").isIdentity)
        XCTAssertThrowsError(try ChainSyntax.parse("drop_shadow canvas=huge"))
    }
}
