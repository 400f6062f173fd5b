@testable import DarkroomCore
import Foundation
import XCTest

final class TransformFilterTests: XCTestCase {
    /// Every pixel distinct.
    let input = Image(width: 7, height: 5) { x, y in Pixel(Float(x) / 7, Float(y) / 5, Float(x * y) / 35, 1) }

    private func transform(_ args: String, _ image: Image? = nil) throws -> Image {
        try makeFilter("transform \(args)", as: TransformFilter.self).apply(to: image ?? input, executor: smallTiles)
    }

    /// y points down, so a positive quarter turn is clockwise on screen: the top-left pixel
    /// goes to the top-right. Exactly a transposition plus a horizontal flip.
    func testQuarterTurnClockwiseIsTransposeAndFlip() throws {
        let out = try transform("rotate=90deg canvas=grow")
        XCTAssertEqual(out.size, Size(width: 5, height: 7))
        for y in 0..<7 { for x in 0..<5 { XCTAssertEqual(out[x, y], input[y, 4 - x], "(\(x), \(y))") } }
    }

    func testNegativeQuarterTurnIsCounterClockwise() throws {
        let out = try transform("rotate=-90deg canvas=grow")
        XCTAssertEqual(out.size, Size(width: 5, height: 7))
        for y in 0..<7 { for x in 0..<5 { XCTAssertEqual(out[x, y], input[6 - y, x], "(\(x), \(y))") } }
    }

    func testHalfTurnAboutTheCentreFlipsBothWays() throws {
        let out = try transform("rotate=180deg pivot=center")
        XCTAssertEqual(out.size, input.size)
        for y in 0..<5 { for x in 0..<7 { XCTAssertEqual(out[x, y], input[6 - x, 4 - y]) } }
    }

    func testWholePixelTranslationIsAnExactShift() throws {
        let out = try transform("translate=[3,-2]")
        for y in 0..<5 { for x in 0..<7 {
            let expected = (0..<7).contains(x - 3) && (0..<5).contains(y + 2) ? input[x - 3, y + 2] : Pixel.zero
            XCTAssertEqual(out[x, y], expected, "(\(x), \(y))")
        } }
        XCTAssertEqual(try transform("translate=[3,-2]"), try transform("translate=[42.857142857142857%,-40%]"))
    }

    func testBackgroundFillsUncoveredPixels() throws {
        let out = try transform("translate=[2,0] background=blue")
        XCTAssertEqual(out[0, 0], Pixel(0, 0, 1, 1))
        XCTAssertEqual(out[2, 0], input[0, 0])
    }

    /// The Decorator chapter's example. Output pixel centre P comes from the input point
    /// R(+45°)·(P − t), t = (−w/2, h/8): the inverse of "rotate −45° about the top-left, then
    /// translate", written out here with cos and sin. On a linear ramp bilinear sampling is
    /// exact, so every output pixel well inside the image must equal the ramp at that point.
    func testDecoratorChapterExample() throws {
        let w = 64, h = 48
        let ramp = Image(width: w, height: h) { x, y in Pixel(Float(x) / 64, Float(y) / 64, 0.5, 1) }
        let out = try transform("rotate=-45deg translate=[-50%,12.5%]", ramp)
        XCTAssertEqual(out.size, ramp.size)
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        var checked = 0
        for y in 0..<h { for x in 0..<w {
            let px = Double(x) + 0.5 + Double(w) / 2, py = Double(y) + 0.5 - Double(h) / 8
            let u = c * px - s * py - 0.5, v = s * px + c * py - 0.5
            if u >= 1, v >= 1, u <= Double(w - 2), v <= Double(h - 2) {
                XCTAssertEqual(Double(out[x, y][0]), u / 64, accuracy: 1e-4, "(\(x), \(y))")
                XCTAssertEqual(Double(out[x, y][1]), v / 64, accuracy: 1e-4, "(\(x), \(y))")
                checked += 1
            } else if u < -1.5 || v < -1.5 || u > Double(w) + 0.5 || v > Double(h) + 0.5 {
                XCTAssertEqual(out[x, y], .zero, "(\(x), \(y)) lies outside the input")
            }
        } }
        XCTAssertGreaterThan(checked, 200)
    }

    /// Steps apply in the order written: translate-then-scale moves twice as far as scale-then-translate.
    func testStepsApplyInTheOrderWritten() throws {
        let big = Image(width: 40, height: 40) { x, y in Pixel(Float(x) / 40, Float(y) / 40, 0, 1) }
        let translateFirst = try makeFilter("transform translate=[5,0] scale=2", as: TransformFilter.self)
        let scaleFirst = try makeFilter("transform scale=2 translate=[5,0]", as: TransformFilter.self)
        let size = big.size
        XCTAssertEqual(translateFirst.affine(for: size).apply(0, 0).x, 10)
        XCTAssertEqual(scaleFirst.affine(for: size).apply(0, 0).x, 5)
        XCTAssertNotEqual(try translateFirst.apply(to: big, executor: smallTiles), try scaleFirst.apply(to: big, executor: smallTiles))
    }

    func testMatrixMatchesTheEquivalentSteps() throws {
        let big = TestImage.smooth(width: 30, height: 20)
        let steps = try transform("scale=[1.5,0.75] translate=[4,3]", big)
        let matrix = try transform("matrix=[1.5,0,0,0.75,4,3]", big)
        XCTAssertLessThan(ImageComparison.maxDifference(steps, matrix), 1e-6)
    }

    func testGrowKeepsTheWholeImage() throws {
        let filter = try makeFilter("transform rotate=30deg scale=2 canvas=grow", as: TransformFilter.self)
        let size = filter.outputSize(for: Size(width: 100, height: 50))
        let c = cos(Double.pi / 6), s = sin(Double.pi / 6)
        XCTAssertEqual(Double(size.width), 2 * (100 * c + 50 * s), accuracy: 1.01)
        XCTAssertEqual(Double(size.height), 2 * (100 * s + 50 * c), accuracy: 1.01)
        // Opaque input: every input pixel survives, so total alpha is preserved (area × scale²).
        let opaque = Image(width: 100, height: 50, fill: Pixel(1, 1, 1, 1))
        let out = try filter.apply(to: opaque, executor: smallTiles)
        let alpha = out.pixels.reduce(0.0) { $0 + Double($1[3]) }
        XCTAssertEqual(alpha, 100 * 50 * 4, accuracy: 100 * 50 * 4 * 0.01)
    }

    func testIdentityDetection() throws {
        for args in ["rotate=0", "translate=[0,0]", "rotate=360deg", "scale=1", "matrix=[1,0,0,1,0,0]", "scale=-1 rotate=180deg"] {
            XCTAssertTrue(try makeFilter("transform \(args)", as: TransformFilter.self).isIdentity, args)
        }
        for args in ["rotate=1deg", "translate=[1%,0]", "scale=[1,-1]", "rotate=0 background=white"] {
            XCTAssertFalse(try makeFilter("transform \(args)", as: TransformFilter.self).isIdentity, args)
        }
    }

    func testCollapsingTransformsAreRejectedAtLoad() {
        XCTAssertNotNil(buildError("transform scale=0"))
        XCTAssertNotNil(buildError("transform matrix=[1,2,2,4,0,0]"))
        XCTAssertNotNil(buildError("transform matrix=[1,0,0,1]"))
        XCTAssertNotNil(buildError("transform scale=[1,2,3]"))
        XCTAssertNotNil(buildError("transform pivot=middle"))
        XCTAssertNil(buildError("transform rotate=0.3 pivot=top_left"))
    }

    func testNoDarkFringeWhenRotatingTransparency() throws {
        let square = Image(width: 40, height: 40) { x, y in
            (10..<30).contains(x) && (12..<28).contains(y) ? Pixel(1, 0, 0, 1) : .zero
        }
        assertNoFringe(try transform("rotate=33deg pivot=center scale=0.8", square), "rotate 33°")
        assertNoFringe(try transform("rotate=-12deg canvas=grow", square), "rotate −12° grow")
    }

    func testInputRegionCoversWhatATileReads() throws {
        let big = TestImage.smooth(width: 48, height: 40)
        let filter = try makeFilter("transform rotate=20deg scale=1.3 pivot=center", as: TransformFilter.self)
        try assertInputRegionSuffices(filter, input: big, tile: Rect(x: 20, y: 10, width: 9, height: 7))
        let grow = try makeFilter("transform rotate=-50deg canvas=grow", as: TransformFilter.self)
        try assertInputRegionSuffices(grow, input: big, tile: Rect(x: 5, y: 30, width: 9, height: 7))
    }

    /// Agreement with `vips affine` (bilinear) on a smooth image, on the input's own canvas
    /// (`--oarea 0 0 w h`, like canvas=same), compared where our output is opaque a pixel away from
    /// any edge. vips maps pixel *indices* (x' = M·x), darkroom maps pixel *areas* (centre at
    /// x + 0.5), so the darkroom matrix gets the translation ½ − M·½ that makes the two the same
    /// map. vips' matrix is [a c b d] in our naming. Tolerance: mean absolute error below
    /// 0.75/255; both sides pass through 8-bit files.
    func testAgreesWithVipsAffine() throws {
        let input = TestImage.smooth(width: 60, height: 40)
        let (a, b, c, d) = (0.8, 0.35, -0.35, 0.8)
        let reference = try ExternalTool.vips.run(input, ["affine", "$IN", "$OUT", "\(a) \(c) \(b) \(d)",
                                                          "--interpolate", "bilinear", "--oarea", "0 0 60 40"])
        let tx = 0.5 - (a * 0.5 + c * 0.5), ty = 0.5 - (b * 0.5 + d * 0.5)
        let ours = try transform("matrix=[\(a),\(b),\(c),\(d),\(tx),\(ty)]", input)
        XCTAssertEqual(ours.size, reference.size)
        guard ours.size == reference.size else { return }
        // Keep pixels that are opaque in our output, and a pixel away from any edge.
        var total = 0.0, count = 0
        for y in 1..<(ours.height - 1) { for x in 1..<(ours.width - 1) {
            let neighbourhood = [ours[x - 1, y], ours[x + 1, y], ours[x, y - 1], ours[x, y + 1], ours[x, y]]
            guard neighbourhood.allSatisfy({ $0[3] >= 1 - 1e-6 }) else { continue }
            let diff = ours[x, y] - reference[x, y]
            total += Double(abs(diff[0]) + abs(diff[1]) + abs(diff[2])) / 3
            count += 1
        } }
        XCTAssertGreaterThan(count, 500)
        let error = total / Double(max(count, 1))
        print("mean absolute error against vips affine: \(error * 255) / 255")
        XCTAssertLessThan(error, 0.75 / 255)
    }
}
