@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

final class GaussianBlurTests: XCTestCase {
    func testKernelIsNormalisedSymmetricAndCutAtOneThousandth() {
        for sigma in [0.5, 1, 2.5, 10, 33.3] {
            let k = GaussianKernel(sigma: sigma)
            let h = k.halfWidth
            XCTAssertEqual(k.weights.reduce(0, +), 1, accuracy: 1e-5)
            XCTAssertEqual(k.weights, Array(k.weights.reversed()))
            // The last tap kept is at least 1/1000 of the peak, the next one would not be.
            XCTAssertGreaterThanOrEqual(exp(-Double(h * h) / (2 * sigma * sigma)), 0.001)
            XCTAssertLessThan(exp(-Double((h + 1) * (h + 1)) / (2 * sigma * sigma)), 0.001)
        }
        XCTAssertEqual(GaussianKernel(sigma: 0).weights, [1])
    }

    func testRadiusIsSigma() {
        // The variance of the sampled kernel is sigma² (the cut at 3.7σ changes it by < 1 %).
        let k = GaussianKernel(sigma: 6)
        let variance = k.weights.enumerated().reduce(0.0) { sum, e in
            let i = Double(e.offset - k.halfWidth)
            return sum + Double(e.element) * i * i
        }
        XCTAssertEqual(variance.squareRoot(), 6, accuracy: 0.06)
    }

    func testFlatImageStaysFlatUpToItsEdges() throws {
        let grey = Pixel(0.25, 0.5, 0.75, 1)
        let out = try regionFilter("gaussian_blur radius=4")
            .apply(to: Image(width: 23, height: 17, fill: grey), executor: smallTiles)
        for p in out.pixels { XCTAssertLessThan(ImageComparison.distance(p, grey), 1e-5) }
    }

    func testStepEdgeBlursSymmetricallyAndKeepsItsSum() throws {
        // A vertical step from 0 to 1 between columns 29 and 30.
        let step = Image(width: 60, height: 5) { x, _ in x < 30 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }
        let out = try regionFilter("gaussian_blur radius=3").apply(to: step, executor: smallTiles)
        for d in 0..<15 {
            // Mirror pixels about the edge sum to 1: the blur of a step is odd-symmetric.
            XCTAssertEqual(out[29 - d, 2][0] + out[30 + d, 2][0], 1, accuracy: 1e-5, "d = \(d)")
            XCTAssertLessThanOrEqual(out[29 - d, 2][0], out[30 - d, 2][0], "monotone")
        }
        XCTAssertEqual(out[29, 2][0], 0.5, accuracy: 0.1)
        // Energy: far from the image edges, the row sum is unchanged.
        let before = (0..<60).reduce(Float(0)) { $0 + step[$1, 2][0] }
        let after = (0..<60).reduce(Float(0)) { $0 + out[$1, 2][0] }
        XCTAssertEqual(after, before, accuracy: 1e-3)
    }

    func testBlurredSpotKeepsItsEnergy() throws {
        var image = Image(width: 64, height: 64, fill: Pixel(0, 0, 0, 1))
        for y in 28..<36 { for x in 30..<34 { image[x, y] = Pixel(1, 0.5, 0.25, 1) } }
        let out = try regionFilter("gaussian_blur radius=3").apply(to: image, executor: smallTiles)
        let sum = { (img: Image) in img.pixels.reduce(Pixel.zero, +) }
        XCTAssertLessThan(ImageComparison.distance(sum(out), sum(image)), 1e-2)
        XCTAssertLessThan(out[32, 32][0], 1, "the spot spreads out")
        XCTAssertGreaterThan(out[32, 40][0], 0.001, "and reaches beyond its bounds")
    }

    func testTransparentSurroundingsLeaveNoDarkFringe() throws {
        // A red opaque disc on transparent black.
        let red = Pixel(1, 0, 0, 1)
        let disc = Image(width: 48, height: 48) { x, y in
            let dx = Float(x) - 23.5, dy = Float(y) - 23.5
            return dx * dx + dy * dy < 100 ? red : .zero
        }
        let out = try regionFilter("gaussian_blur radius=5").apply(to: disc, executor: smallTiles)
        var checked = 0
        for p in out.pixels where p[3] > 1.0 / 255 {
            let straight = p.unpremultiplied
            XCTAssertEqual(straight[0], 1, accuracy: 1e-3)
            XCTAssertEqual(straight[1], 0, accuracy: 1e-3)
            XCTAssertEqual(straight[2], 0, accuracy: 1e-3)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 400, "the blur spread alpha beyond the disc")
    }

    func testTilesDoNotShow() throws {
        let image = TestImage.texture(width: 50, height: 41)
        let filter = try regionFilter("gaussian_blur radius=2.5")
        let whole = try filter.apply(to: image, executor: StripExecutor(bandHeight: 128, concurrency: 1))
        let tiled = try filter.apply(to: image, executor: smallTiles)
        XCTAssertEqual(whole, tiled)
    }

    func testAgreesWithVipsGaussblur() throws {
        let image = TestImage.texture(width: 61, height: 47)
        for sigma in [1.0, 2.5, 3.5] {
            let ours = try regionFilter("gaussian_blur radius=\(sigma)").apply(to: image, executor: smallTiles)
            // Same kernel (gaussmat with min_ampl 0.001, normalised), same edge extension, float on
            // both sides: only float rounding differs, so the tolerance is a few float ulps of a
            // ~75-tap sum, far below anything visible (1/255 ≈ 0.004).
            let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm, [
                "gaussblur", "$IN", "$OUT", "\(sigma)", "--min-ampl", "0.001", "--precision", "float",
            ])
            XCTAssertLessThan(ImageComparison.meanAbsoluteError(ours, vips), 1e-5, "sigma \(sigma)")
            XCTAssertLessThan(ImageComparison.maxDifference(ours, vips, channels: 0..<3), 1e-4, "sigma \(sigma)")
        }
    }

    /// From ``GaussianBlur/colourBoxCascadeSigma`` on, the blur is boxes: within 45 dB of vips's exact one.
    func testBoxesAgreeWithVipsGaussblur() throws {
        let image = GaussianAccuracyTests.photoLike(width: 160, height: 120)
        for sigma in [6.0, 20, 40] {
            let ours = try regionFilter("gaussian_blur radius=\(sigma)").apply(to: image, executor: smallTiles)
            let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm, [
                "gaussblur", "$IN", "$OUT", "\(sigma)", "--min-ampl", "0.00001", "--precision", "float",
            ])
            XCTAssertGreaterThanOrEqual(psnr(ours, vips), 45, "sigma \(sigma)")
        }
    }

    func testDescriptorAndValidation() throws {
        XCTAssertTrue(try regionFilter("gaussian_blur radius=0").isIdentity)
        XCTAssertFalse(try regionFilter("gaussian_blur").isIdentity)
        XCTAssertThrowsError(try ChainSyntax.parse("gaussian_blur radius=-1"))
        let f = try regionFilter("gaussian_blur radius=2")
        // Halo: floor(2 · √(2 ln 1000)) = 7 pixels each side.
        XCTAssertEqual(f.inputRegion(for: Rect(x: 10, y: 20, width: 5, height: 6), inputSize: Size(width: 100, height: 100)),
                       Rect(x: 3, y: 13, width: 19, height: 20))
        XCTAssertEqual(f.outputSize(for: Size(width: 9, height: 4)), Size(width: 9, height: 4))
        XCTAssertTrue(GaussianBlurFilter.descriptor.description.contains("sigma"))
    }
}
