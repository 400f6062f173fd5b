@testable import DarkroomCore
import XCTest

/// What a person sees when shrinking: fine detail averages out instead of turning into moiré,
/// and `no_upscale` keeps each side within the input's own side.
final class ResizeShrinkTests: XCTestCase {
    /// Stripes one pixel wide, black and white, down the whole image: detail at the finest
    /// possible scale, which any shrink must average (its mean is 0.5 everywhere).
    let stripes = Image(width: 90, height: 30) { x, _ in x % 2 == 0 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }

    func testShrinkingFineStripesGivesTheirAverageGreyWithEveryInterpolatingKernel() throws {
        // At scale 0.3 each output pixel covers 3.3 input columns. A kernel widened by the scale
        // (antialiasing) averages them to mid-grey; one that is not samples 2 to 6 columns
        // at a phase that drifts across the image, and the stripes come back as broad bands.
        for kernel in ["bilinear", "bicubic", "lanczos3"] {
            let out = try makeFilter("resize scale=0.3 kernel=\(kernel)", as: ResizeFilter.self).apply(to: stripes, executor: smallTiles)
            XCTAssertEqual(out.size, Size(width: 27, height: 9))
            var worst: Float = 0
            // The outermost columns see the edge, where the kernel is cut and renormalised.
            for y in 0..<out.size.height { for x in 1..<(out.size.width - 1) { worst = max(worst, abs(out[x, y][0] - 0.5)) } }
            XCTAssertLessThan(worst, 0.1, "\(kernel): output columns stray from mid-grey by up to \(worst)")
        }
    }

    func testNoUpscaleWithStretchCapsEachSideByTheSameSideOfTheInput() throws {
        let input = Size(width: 400, height: 300)
        func size(_ chain: String) throws -> Size { try makeFilter(chain, as: ResizeFilter.self).outputSize(for: input) }
        XCTAssertEqual(try size("resize width=200 height=350 fit=stretch no_upscale=true"), Size(width: 200, height: 300))
        XCTAssertEqual(try size("resize width=450 height=100 fit=stretch no_upscale=true"), Size(width: 400, height: 100))
        XCTAssertEqual(try size("resize width=450 height=350 fit=stretch"), Size(width: 450, height: 350))
    }
}
