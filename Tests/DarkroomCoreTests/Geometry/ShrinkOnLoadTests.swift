import XCTest
@testable import DarkroomCore

/// A chain that starts by shrinking lets the loader decode at 1/2, 1/4 or 1/8 (libvips'
/// shrink-on-load); the chain then maps the smaller source onto the same output.
final class ShrinkOnLoadTests: XCTestCase {
    private func chain(_ text: String) throws -> CompiledChain {
        ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1))
    }

    func testTheFactorLeavesAtLeastTwoToTheResampler() throws {
        let source = Size(width: 1600, height: 1200)
        XCTAssertEqual(try chain("resize width=100").sourceShrinkFactor(for: source), 8)    // 16×
        XCTAssertEqual(try chain("resize width=150").sourceShrinkFactor(for: source), 4)    // 10.7×
        XCTAssertEqual(try chain("resize width=400").sourceShrinkFactor(for: source), 2)    // 4×
        XCTAssertEqual(try chain("resize width=500").sourceShrinkFactor(for: source), 1)    // 3.2×
        XCTAssertEqual(try chain("resize scale=0.1 | sepia").sourceShrinkFactor(for: source), 4)
        // cover fills the box: the smaller reduction (height 1200 → 150) decides.
        XCTAssertEqual(try chain("resize width=100 height=150 fit=cover").sourceShrinkFactor(for: source), 4)
        XCTAssertEqual(try chain("resize width=2000").sourceShrinkFactor(for: source), 1, "enlarging gains nothing")
    }

    func testOnlyAFirstStageThatShrinksAllowsIt() throws {
        let source = Size(width: 1600, height: 1200)
        XCTAssertEqual(try chain("sepia | resize width=100").sourceShrinkFactor(for: source), 1)
        XCTAssertEqual(try chain("crop width=50% | resize width=100").sourceShrinkFactor(for: source), 1)
        XCTAssertEqual(try chain("gaussian_blur radius=3 | resize width=100").sourceShrinkFactor(for: source), 1)
        XCTAssertEqual(try chain("invert").sourceShrinkFactor(for: source), 1)
    }

    func testTheShrunkSourceGivesTheSameSizeAndNearlyTheSamePixels() throws {
        for text in ["resize width=100", "resize width=90 height=90 fit=cover", "resize width=97 height=70 fit=stretch",
                     "resize width=120 height=120 fit=contain background=#ffffff"] {
            let original = TestImage.smooth(width: 1601, height: 1203)
            // What a JPEG decoder's 1/8 scaling gives: each 8×8 block averaged (partial blocks at the edge).
            let shrunk = boxReduced(original, by: 8)
            let full = try chain(text)
            let viaShrunk = full.forShrunkSource(original: original.size, shrunk: shrunk.size)
            let a = try full.run(original, executor: smallTiles).image
            let b = try viaShrunk.run(shrunk, executor: smallTiles).image
            XCTAssertEqual(a.size, b.size, text)
            // Block averaging is a box prefilter, lanczos3 a sharper one: small differences, far below 1/255.
            let error = ImageComparison.meanAbsoluteError(a, b, in: Rect(size: a.size))
            XCTAssertLessThan(error, 0.5 / 255, text)
        }
    }

    func testAChainOnAnUnshrunkSourceIsUnchanged() throws {
        let full = try chain("resize width=100 | sepia")
        let same = full.forShrunkSource(original: Size(width: 800, height: 600), shrunk: Size(width: 800, height: 600))
        let image = TestImage.smooth(width: 800, height: 600)
        XCTAssertEqual(try full.run(image).image, try same.run(image).image)
    }

    /// Averages k×k blocks, rounding the size up like libjpeg's scaled decoding.
    private func boxReduced(_ image: Image, by k: Int) -> Image {
        let w = (image.width + k - 1) / k, h = (image.height + k - 1) / k
        return Image(width: w, height: h) { x, y in
            var sum = Pixel.zero
            var n: Float = 0
            for sy in y * k..<min(image.height, y * k + k) {
                for sx in x * k..<min(image.width, x * k + k) { sum += image[sx, sy]; n += 1 }
            }
            return sum / n
        }
    }
}
