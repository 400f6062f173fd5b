@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest

/// A cast shadow alone on its canvas, at a given cell size (``CastShadow/scale``).
private struct ShadowAtScaleFilter: RegionFilter {
    static let descriptor = FilterDescriptor(name: "shadow_at_scale_test", displayName: "Shadow at scale (test)",
                                             categories: ["test"], description: "")
    let cast: CastShadow
    init(parameters: ResolvedParameters) { cast = CastShadow(offset: (0, 0), color: RGBA(0, 0, 0, 1), blur: 0) }
    init(_ cast: CastShadow) { self.cast = cast }
    func outputSize(for input: Size) -> Size { input }
    func plan(for input: Size) -> KernelPlan {
        let steps = cast.steps(casting: .input, size: input, canvas: input, first: 0), m = cast.margin
        let crop = CopyKernel(inputSize: Size(width: input.width + 2 * m, height: input.height + 2 * m), outputSize: input, origin: (m, m))
        return KernelPlan(steps + [.init(crop, sources: [.step(steps.count - 1)], label: "canvas")])
    }
}

/// From sigma 12 a shadow's alpha and a feathered clip's mask are blurred over cells and
/// interpolated back (``ReducedGaussian``): checked against the same blur at full resolution and
/// against the exact Gaussian in double, on hard edges that cut the cells at odd places, from
/// the smallest sigma that reduces to the slider's end.
final class ReducedGaussianTests: XCTestCase {
    /// Hard edges: an opaque ellipse, an opaque bar and a half-transparent block, the rest
    /// transparent, so the shadow falls on bare canvas on every side of them.
    private func shapes(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { x, y in
            let dx = Double(x) - Double(width) * 0.3, dy = Double(y) - Double(height) * 0.45
            if dx * dx / Double(width * width / 49) + dy * dy / Double(height * height / 25) < 1 { return Pixel(0.2, 0.3, 0.4, 1) }
            if x > width * 5 / 9, x < width * 5 / 9 + 7, y > height / 7 { return Pixel(0.5, 0.1, 0.1, 1) }
            if x > width / 8, x < width / 3, y > height * 3 / 4, y < height * 3 / 4 + 11 { return Pixel(0.1, 0.1, 0, 0.4) }
            return .zero
        }
    }

    private let settings: [(sigma: Double, width: Int, height: Int)] = [(12, 131, 97), (20, 170, 123), (47, 301, 223), (100, 410, 297)]

    /// The cells and the interpolation cost no accuracy: the reduced shadow's alpha is as close
    /// to the exact Gaussian's as the same blur's at full resolution (worst pixel and PSNR).
    func testReducingKeepsTheBlursAccuracy() throws {
        for (sigma, width, height) in settings {
            let image = shapes(width: width, height: height), offset = (Int(sigma * 0.7) + 3, -Int(sigma * 0.3) - 1)
            let reduced = CastShadow(offset: offset, color: RGBA(0, 0, 0, 1), blur: sigma)
            XCTAssertGreaterThan(reduced.scale, 1, "sigma \(sigma) reduces")
            let full = CastShadow(offset: offset, color: RGBA(0, 0, 0, 1), blur: sigma, scale: 1)
            let alpha = WideBlurTests.exactShadowAlpha(image, dx: offset.0, dy: offset.1, sigma: sigma)
            let exact = Image(width: width, height: height) { x, y in Pixel(0, 0, 0, Float(alpha[y * width + x])) }
            XCTAssertGreaterThan(alpha.max() ?? 0, 0.15, "the shadow is visible")
            let ours = try ShadowAtScaleFilter(reduced).apply(to: image, executor: smallTiles)
            let reference = try ShadowAtScaleFilter(full).apply(to: image, executor: smallTiles)
            let setting = "sigma \(sigma), scale \(reduced.scale)"
            XCTAssertLessThanOrEqual(ImageComparison.maxDifference(ours, exact), ImageComparison.maxDifference(reference, exact) + 0.1 / 255, setting)
            XCTAssertGreaterThanOrEqual(psnr(ours, exact), psnr(reference, exact) - 0.5, setting)
        }
    }

    /// Through `drop_shadow`, against the exact Gaussian: the 45 dB every blur keeps, and within
    /// 2/255 (a shadow of opacity ½: 4/255 of its alpha, the boxes' own error on hard edges).
    func testTheShadowIsTheExactGaussianOfTheAlpha() throws {
        for (sigma, width, height) in settings {
            let (dx, dy) = (Int(sigma * 0.7) + 3, -Int(sigma * 0.3) - 1)
            let image = shapes(width: width, height: height)
            let filter = try regionFilter("drop_shadow offset=[\(dx),\(dy)] blur=\(sigma) color=[0.2,0.8,0.4,0.5]")
            let ours = try filter.apply(to: image, executor: smallTiles)
            let expected = WideBlurTests.exactDropShadow(image, dx: dx, dy: dy, sigma: sigma).image
            XCTAssertGreaterThanOrEqual(psnr(ours, expected), 45, "sigma \(sigma)")
            XCTAssertLessThan(ImageComparison.maxDifference(ours, expected), 2 / 255, "sigma \(sigma)")
            // Every band height and thread count gives the same pixels.
            XCTAssertEqual(try filter.apply(to: image, executor: StripExecutor(bandHeight: 4096, concurrency: 1)), ours, "sigma \(sigma)")
            XCTAssertEqual(try filter.apply(to: image, executor: StripExecutor(bandHeight: 7, concurrency: 3)), ours, "sigma \(sigma)")
        }
    }

    /// `clip feather=40` (sigma 20, cells of 3 px): the mask is the shape's coverage, the parts
    /// beyond the image included, blurred by the exact Gaussian: at least the 45 dB every blur
    /// keeps, and within 3/255 (the boxes' own error on this edge at full resolution: 2.5/255).
    func testAFeatheredClipIsTheExactGaussianOfTheShape() throws {
        let (width, height, sigma, m) = (120, 90, 20.0, 130)
        let text = "clip shape=ellipse center=[50,40] radii=[70,30] feather=\(2 * sigma)"
        let clip = try XCTUnwrap(try ChainSyntax.parse(text, registry: .shipped).resolve(seed: 1).first?.filter as? any RegionFilter)
        let ours = try clip.apply(to: Image(width: width, height: height, fill: Pixel(1, 1, 1, 1)), executor: smallTiles)
        // The shape's coverage over the image and m px around it (past 6 sigma, nothing of it reaches in).
        let canvas = Rect(x: -m, y: -m, width: width + 2 * m, height: height + 2 * m)
        let coverage = Coverage(Path.ellipse(cx: 50, cy: 40, rx: 70, ry: 30), in: canvas)
        let layer = Image(width: canvas.width, height: canvas.height) { x, y in Pixel(repeating: coverage[x - m, y - m]) }
        let blurred = GaussianAccuracyTests.exactGaussian(layer, sigma: sigma, transparentEdges: true)
        let expected = Image(width: width, height: height) { x, y in blurred[x + m, y + m] }
        XCTAssertGreaterThan(ours.pixels.map { $0[3] }.max() ?? 0, 0.5, "the shape shows")
        XCTAssertGreaterThanOrEqual(psnr(ours, expected), 45)
        XCTAssertLessThan(ImageComparison.maxDifference(ours, expected), 3 / 255)
        XCTAssertEqual(try clip.apply(to: Image(width: width, height: height, fill: Pixel(1, 1, 1, 1)),
                                      executor: StripExecutor(bandHeight: 5, concurrency: 3)), ours)
    }

    /// `gaussian_blur` over cells extends the image's edges as the full-resolution blur does: a
    /// 1-px frame of another colour along the border, which the extended edges repeat outwards,
    /// weighs as much as in the exact Gaussian with extended edges (measured: 0.17/255 at most).
    func testCellsExtendTheEdgesLikeTheExactBlur() throws {
        let (width, height) = (150, 110)
        let photo = GaussianAccuracyTests.photoLike(width: width, height: height)
        let image = Image(width: width, height: height) { x, y in
            x == 0 || y == 0 || x == width - 1 || y == height - 1 ? Pixel(0.9, 0.1, 0.1, 1) : photo[x, y]
        }
        for sigma in [13.0, 30] {
            let ours = try regionFilter("gaussian_blur radius=\(sigma)").apply(to: image, executor: smallTiles)
            let expected = GaussianAccuracyTests.exactGaussian(image, sigma: sigma)
            XCTAssertGreaterThanOrEqual(psnr(ours, expected), 45, "sigma \(sigma)")
            XCTAssertLessThan(ImageComparison.maxDifference(ours, expected), 0.5 / 255, "sigma \(sigma)")
        }
    }
}
