@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// Blurs that reach further than a band row's padding (the pipeline pads at most
/// ``BandPlan/maximumPad`` columns), whose kernels answer the reads past the image's edges
/// themselves, and `box_blur` on a running sum: checked against the formulas in double.
final class WideBlurTests: XCTestCase {
    /// The image's alpha moved by (dx, dy), blurred by the exact Gaussian (cut at 6σ), with
    /// nothing but transparency around it, at every pixel of a canvas of the image's size.
    static func exactShadowAlpha(_ image: Image, dx: Int, dy: Int, sigma: Double) -> [Double] {
        let h = Int((6 * sigma).rounded(.up)), width = image.width, height = image.height
        var w = (-h...h).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = w.reduce(0, +)
        w = w.map { $0 / total }
        // Across: each image row, at every canvas column.
        var across = [Double](repeating: 0, count: width * height)
        for row in 0..<height {
            for x in 0..<width {
                var s = 0.0
                for k in -h...h {
                    let source = x - dx - k
                    if source >= 0, source < width { s += w[k + h] * Double(image[source, row][3]) }
                }
                across[row * width + x] = s
            }
        }
        // Down: canvas row y reads image row y − dy − j.
        var out = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for j in -h...h {
                let row = y - dy - j
                guard row >= 0, row < height else { continue }
                for x in 0..<width { out[y * width + x] += w[j + h] * across[row * width + x] }
            }
        }
        return out
    }

    /// `drop_shadow offset=[dx,dy] blur=sigma color=[0.2,0.8,0.4,0.5]` on a canvas of the
    /// image's size, by the formula: the image over the tint times the exact shadow alpha.
    static func exactDropShadow(_ image: Image, dx: Int, dy: Int, sigma: Double) -> (image: Image, maxAlpha: Double) {
        let alpha = exactShadowAlpha(image, dx: dx, dy: dy, sigma: sigma), tint = Pixel(0.1, 0.4, 0.2, 0.5)
        let composite = Image(width: image.width, height: image.height) { x, y in
            let p = image[x, y]
            return p + tint * Float(alpha[y * image.width + x]) * (1 - p[3])
        }
        return (composite, alpha.max() ?? 0)
    }

    func testShadowWiderThanThePaddingIsTheFormula() throws {
        let width = 160, height = 120, sigma = 80.0, (dx, dy) = (100, -20)
        XCTAssertGreaterThan(GaussianBlur(sigma: sigma).halo(alphaOnly: true), BandPlan.maximumPad)
        // The left half opaque, the right half transparent: the shadow falls on the right half
        // and past the canvas's right and top edges.
        let image = Image(width: width, height: height) { x, y in
            x < width / 2 ? Pixel(0.2, 0.3, 0.4, 1) : (x < width * 3 / 4 && y > 90 ? Pixel(0.1, 0.1, 0, 0.4) : .zero)
        }
        let filter = try regionFilter("drop_shadow offset=[\(dx),\(dy)] blur=\(sigma) color=[0.2,0.8,0.4,0.5]")
        let ours = try filter.apply(to: image, executor: smallTiles)
        let (expected, maxAlpha) = Self.exactDropShadow(image, dx: dx, dy: dy, sigma: sigma)
        XCTAssertGreaterThan(maxAlpha, 0.1, "the shadow is visible")
        XCTAssertGreaterThanOrEqual(psnr(ours, expected), 45)
        XCTAssertLessThan(ImageComparison.maxDifference(ours, expected), 0.01)
        // The same pixels whatever the bands and threads.
        XCTAssertEqual(try filter.apply(to: image, executor: StripExecutor(bandHeight: 4096, concurrency: 1)), ours)
    }

    /// From ``BoxBlurFilter/runningSumRadius`` on, `box_blur` is a running sum: still the mean
    /// of the (2r + 1)² square, edges extended, within fixed point's rounding.
    func testWideBoxBlurIsTheMean() throws {
        let image = GaussianAccuracyTests.hardEdges(width: 70, height: 50, cell: 9)
        for r in [BoxBlurFilter.runningSumRadius, 30] {
            let ours = try regionFilter("box_blur radius=\(r)").apply(to: image, executor: smallTiles)
            let n = Double(2 * r + 1)
            func at(_ x: Int, _ y: Int) -> Pixel { image[min(max(x, 0), image.width - 1), min(max(y, 0), image.height - 1)] }
            var worst: Float = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    var s = (0.0, 0.0, 0.0, 0.0)
                    for j in -r...r {
                        for k in -r...r {
                            let p = at(x + k, y + j)
                            s.0 += Double(p[0]); s.1 += Double(p[1]); s.2 += Double(p[2]); s.3 += Double(p[3])
                        }
                    }
                    let mean = Pixel(Float(s.0 / (n * n)), Float(s.1 / (n * n)), Float(s.2 / (n * n)), Float(s.3 / (n * n)))
                    worst = max(worst, ImageComparison.distance(ours[x, y], mean))
                }
            }
            XCTAssertLessThan(worst, 1e-4, "radius \(r)")
        }
    }
}
