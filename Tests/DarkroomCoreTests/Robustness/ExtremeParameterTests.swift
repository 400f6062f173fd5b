@testable import DarkroomCore
import XCTest

/// Values at the far ends of what parameter parsing accepts: every one either fails to build
/// with a message, or builds a filter whose output size is computed without trapping and whose
/// area stays representable (the daemon compares it with `max_pixels` before running anything).
final class ExtremeParameterTests: XCTestCase {
    let input = Size(width: 640, height: 480)

    /// The size a one-filter chain gives `input`, or nil when the chain is refused.
    private func outputSize(_ text: String, for input: Size) -> Size? {
        guard let filters = try? ChainSyntax.parse(text).resolve(seed: 1) else { return nil }
        return ChainCompiler.compile(filters).outputSize(for: input)
    }

    func testHugeTransformFactorsGiveAHugeButRepresentableSize() throws {
        for text in ["transform scale=1e9 canvas=grow", "transform scale=[1e300,1] canvas=grow",
                     "transform matrix=[1e300,0,0,1e300,0,0] canvas=grow"] {
            let size = try XCTUnwrap(outputSize(text, for: input), text)
            XCTAssertGreaterThan(size.area, 100_000_000, text)
        }
        // At 1e300 px a translation swallows the image's own extent (640 + 1e300 == 1e300 in
        // floating point); the size is meaningless but must still be computed without a trap.
        for text in ["transform translate=[1e300,1e300] canvas=grow", "transform pivot=[1e300,1e300] scale=2 canvas=grow"] {
            let size = try XCTUnwrap(outputSize(text, for: input), text)
            XCTAssertGreaterThan(size.width, 0, text)
            XCTAssertGreaterThan(size.height, 0, text)
        }
        // Huge factors that do not grow the canvas keep the input's size.
        XCTAssertEqual(outputSize("transform scale=1e9", for: input), input)
    }

    func testHugePivotOrTranslationIsSafeOnTheSameCanvas() throws {
        for text in ["transform pivot=[1e300,1e300] scale=2", "transform translate=[1e300,-1e300]"] {
            let filter = try regionFilter(text)
            XCTAssertEqual(filter.outputSize(for: input), input, text)
            _ = filter.inputRegion(for: Rect(x: 0, y: 0, width: 64, height: 64), inputSize: input)
            let out = try filter.apply(to: TestImage.smooth(width: 9, height: 7), executor: smallTiles)
            XCTAssertEqual(out.pixels, Array(repeating: .zero, count: 63), "everything moved out of the picture: \(text)")
        }
    }

    func testTransformsWhoseNumbersOverflowAreRefused() {
        let message = buildError("transform matrix=[1e300,0,0,1e300,0,0] scale=1e300")
        XCTAssertNotNil(message)
        XCTAssertEqual(buildError("transform scale=[1e-9,1e-9]").map { $0.contains("collapses") }, true)
        XCTAssertNil(buildError("transform rotate=1e300"))
    }

    func testChainedEnlargementsSaturateInsteadOfOverflowing() {
        let chain = Array(repeating: "resize scale=100", count: 12).joined(separator: " | ")
        let size = ChainCompiler.compile(try! ChainSyntax.parse(chain).resolve(seed: 1)).outputSize(for: input)
        XCTAssertGreaterThan(size.width, 65535)
        XCTAssertEqual(size.area, size.width.multipliedReportingOverflow(by: size.height).overflow ? Int.max : size.width * size.height)
        XCTAssertEqual(outputSize("resize width=65535 height=65535 fit=stretch", for: Size(width: 1, height: 1)),
                       Size(width: 65535, height: 65535))
        XCTAssertNotNil(buildError("resize scale=1e9"))
        XCTAssertNotNil(buildError("resize width=65536"))
    }

    func testAreaSaturates() {
        XCTAssertEqual(Size(width: 1 << 40, height: 1 << 40).area, Int.max)
        XCTAssertEqual(Size(width: 3, height: 4).area, 12)
    }

    func testHugeCropValuesAreClampedToTheImage() throws {
        XCTAssertEqual(outputSize("crop width=1e300 height=1e300", for: input), input)
        XCTAssertEqual(outputSize("crop width=1e300% height=50%", for: input), Size(width: 640, height: 240))
        XCTAssertEqual(outputSize("crop x=1e300 y=1e300", for: input), Size(width: 1, height: 1))
        XCTAssertNotNil(buildError("crop width=0"))
        XCTAssertNotNil(buildError("crop width=0%"))
    }

    func testBlurRadiiHaveAHardMaximum() {
        for text in ["gaussian_blur radius=1e9", "gaussian_blur radius=1e300", "drop_shadow blur=1e6"] {
            let message = buildError(text)
            XCTAssertEqual(message.map { $0.contains("1000") }, true, "\(text): \(message ?? "built")")
        }
        XCTAssertNil(buildError("gaussian_blur radius=1000"))
        XCTAssertNil(buildError("drop_shadow blur=1000"))
    }

    func testHugeShadowOffsetsAreSafe() throws {
        let same = try regionFilter("drop_shadow offset=[1e300,-1e300]")
        XCTAssertEqual(same.outputSize(for: input), input)
        let image = TestImage.smooth(width: 9, height: 7)
        XCTAssertEqual(try same.apply(to: image, executor: smallTiles), image, "the shadow falls far outside the canvas")
        let grow = try regionFilter("drop_shadow offset=[1e9,1e9] canvas=grow")
        XCTAssertGreaterThan(grow.outputSize(for: input).area, 100_000_000)
        XCTAssertGreaterThan(try regionFilter("drop_shadow offset=[1e300%,0] canvas=grow").outputSize(for: input).width, 1 << 30)
    }

    func testConvolutionKernelsAtTheEdges() throws {
        let image = TestImage.smooth(width: 9, height: 7)
        let one = try regionFilter("convolve kernel=[2] scale=2")
        XCTAssertEqual(try one.apply(to: image, executor: smallTiles), image)
        let big = try regionFilter("convolve kernel=[" + Array(repeating: "1", count: 31 * 31).joined(separator: ",") + "]")
        let blurred = try big.apply(to: Image(width: 9, height: 7, fill: Pixel(0.5, 0.5, 0.5, 1)), executor: smallTiles)
        for p in blurred.pixels { XCTAssertEqual(p[0], 0.5, accuracy: 1e-4) }
        let huge = buildError("convolve kernel=[" + Array(repeating: "1", count: 33 * 33).joined(separator: ",") + "]")
        XCTAssertEqual(huge.map { $0.contains("at most 31×31") }, true, huge ?? "a 33×33 kernel was accepted")
        XCTAssertNotNil(buildError("convolve kernel=[1,nan,1,1,1,1,1,1,1]"))
        XCTAssertNotNil(buildError("convolve kernel=[1,inf,1,1,1,1,1,1,1]"))
        XCTAssertNotNil(buildError("convolve kernel=[1,1,1,1,1,1,1,1,1] scale=1e-320"))
        let overflowing = buildError("convolve kernel=[1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308]")
        XCTAssertEqual(overflowing.map { $0.contains("scale") }, true, overflowing ?? "built")
    }

    func testDeeplyNestedChainValuesAreRefused() {
        let depth = 100_000
        let text = "convolve kernel=" + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let message = buildError(text)
        XCTAssertEqual(message.map { $0.contains("nest") }, true, message ?? "built")
        XCTAssertNotNil(buildError("convolve kernel=[[1]]]"))
        XCTAssertNotNil(buildError("convolve kernel=]1["))
    }
}
