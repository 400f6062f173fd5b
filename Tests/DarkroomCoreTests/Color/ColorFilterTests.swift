import XCTest
@testable import DarkroomCore

/// Each colour filter against its published formula on known pixels.
final class ColorFilterTests: XCTestCase {
    /// Runs one filter over a one-row image of the given straight colours.
    private func run(_ chain: String, on colors: [Pixel]) throws -> [Pixel] {
        let spec = try ChainSyntax.parse(chain)
        let image = Image(width: colors.count, height: 1, pixels: colors.map(\.premultiplied))
        let out = try ChainCompiler.compile(try spec.resolve(seed: 1)).run(image, executor: StripExecutor(concurrency: 1)).image
        return out.pixels.map(\.unpremultiplied)
    }

    private func assertClose(_ a: Pixel, _ b: Pixel, accuracy: Float = 1e-5, file: StaticString = #filePath, line: UInt = #line) {
        for i in 0..<4 { XCTAssertEqual(a[i], b[i], accuracy: accuracy, "channel \(i) of \(a) vs \(b)", file: file, line: line) }
    }

    func testInvertIsOneMinusColourAndKeepsAlpha() throws {
        let out = try run("invert", on: [Pixel(0.2, 0.5, 1, 1), Pixel(0, 0.25, 0.75, 0.5)])
        assertClose(out[0], Pixel(0.8, 0.5, 0, 1))
        assertClose(out[1], Pixel(1, 0.75, 0.25, 0.5))
    }

    func testGammaRaisesToPower() throws {
        let out = try run("gamma power=2", on: [Pixel(0.5, 0.25, 1, 1)])
        assertClose(out[0], Pixel(0.25, 0.0625, 1, 1))
    }

    func testContrastAndBrightnessFormulas() throws {
        // contrast (c − 0.5)·k + 0.5, then brightness is applied before it: ((c + b) − 0.5)·k + 0.5
        let c: Float = 0.3, b: Float = 0.1, k: Float = 2
        let out = try run("color_controls brightness=0.1 contrast=2", on: [Pixel(c, c, c, 1)])
        let expected = ((c + b) - 0.5) * k + 0.5
        assertClose(out[0], Pixel(expected, expected, expected, 1))
    }

    func testZeroSaturationGivesRec709Grey() throws {
        let out = try run("color_controls saturation=0", on: [Pixel(1, 0.5, 0.25, 1)])
        let grey: Float = 0.2126 * 1 + 0.7152 * 0.5 + 0.0722 * 0.25
        assertClose(out[0], Pixel(grey, grey, grey, 1))
    }

    func testSepiaMatrixAtFullIntensityAndHalf() throws {
        let (r, g, b): (Float, Float, Float) = (0.2, 0.4, 0.6)
        let full = try run("sepia", on: [Pixel(r, g, b, 1)])[0]
        assertClose(full, Pixel(0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b,
                                0.272 * r + 0.534 * g + 0.131 * b, 1))
        let half = try run("sepia intensity=0.5", on: [Pixel(r, g, b, 1)])[0]
        assertClose(half, Pixel((r + full[0]) / 2, (g + full[1]) / 2, (b + full[2]) / 2, 1))
    }

    func testHueRotationKeepsGreysAndCyclesPrimariesAt120Degrees() throws {
        let out = try run("hue angle=120deg", on: [Pixel(0.4, 0.4, 0.4, 1), Pixel(1, 0, 0, 1)])
        assertClose(out[0], Pixel(0.4, 0.4, 0.4, 1))
        // A rotation of 120° about the grey axis maps red onto green.
        assertClose(out[1], Pixel(0, 1, 0, 1), accuracy: 1e-5)
    }

    func testTransparentPixelsStayTransparent() throws {
        let out = try run("invert | color_controls brightness=0.5", on: [Pixel(0.3, 0.3, 0.3, 0)])
        XCTAssertEqual(out[0][3], 0)
    }
}
