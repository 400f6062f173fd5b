import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// PNG output keeps the input's depth and colour type where the chain allows: 16-bit stays
/// 16-bit (values kept exactly), grey stays grey, palette stays palette while the colours fit;
/// `bit_depth` and `compression` override. Layouts are read from the written file's IHDR and by
/// ImageMagick's `identify`.
final class PNGOutputTests: XCTestCase {
    private let png = EncodeOptions(format: .png)

    private func identify(_ bytes: [UInt8]) throws -> String {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(bytes, named: "out.png", in: folder)
        return try ReferenceTool.output(ReferenceTool.identify, ["-format", "%[channels] %z", path])
    }

    /// An image ImageMagick makes with `arguments`, written as `format`:out.png.
    private func made(_ arguments: [String], format: String = "PNG") throws -> [UInt8] {
        let folder = TemporaryFolder()
        _ = try ReferenceTool.output(ReferenceTool.convert, arguments + ["\(format):" + folder.file("out.png")])
        return try folder.bytes("out.png")
    }

    func testSixteenBitPNGsRoundTripExactly() throws {
        for (fixture, colorType, layout) in [("gray16.png", 0, "gray 16"), ("rgb16.png", 2, "srgb 16"), ("rgba16.png", 6, "srgba 16")] {
            let input = try Fixtures.bytes(fixture)
            let output = try render(input, options: png).bytes
            XCTAssertEqual(pngHeader(output).depth, 16, fixture)
            XCTAssertEqual(pngHeader(output).colorType, colorType, fixture)
            XCTAssertEqual(try identify(output), layout, fixture)
            // The same 16-bit samples give the same floats: any change of value shows.
            XCTAssertEqual(try ImageCodec.decode(output).image.pixels, try ImageCodec.decode(input).image.pixels, fixture)
        }
    }

    func testGreyStaysGreyWhileTheChainKeepsIt() throws {
        let cases: [(String, String, Int, String)] = [
            ("gray8.png", "", 0, "gray 8"), ("gray_alpha8.png", "", 4, "graya 8"),
            ("gray8.png", "gaussian_blur radius=1 | color_controls contrast=1.2", 0, "gray 8"),
            ("gray16.png", "resize scale=2", 0, "gray 16"),
            ("gray8.png", "sepia", 2, "srgb 8"), ("gray_alpha8.png", "sepia", 6, "srgba 8"),
        ]
        for (fixture, chain, colorType, layout) in cases {
            let input = try Fixtures.bytes(fixture)
            let output = try render(input, chain, options: png).bytes
            XCTAssertEqual(pngHeader(output).colorType, colorType, "\(fixture) | \(chain)")
            XCTAssertEqual(try identify(output), layout, "\(fixture) | \(chain)")
            if chain.isEmpty {
                XCTAssertEqual(try ImageCodec.decode(output).image.pixels, try ImageCodec.decode(input).image.pixels, fixture)
            }
        }
    }

    /// One channel instead of three: a grey photograph's PNG is well under the RGB one's size.
    func testGreyFilesAreSmallerThanTheirRGBForm() throws {
        let input = try made(["-seed", "3", "-size", "128x96", "plasma:fractal", "-colorspace", "Gray",
                              "-define", "png:color-type=0", "-depth", "8"])
        XCTAssertEqual(pngHeader(input).colorType, 0)
        let grey = try render(input, options: png).bytes
        let rgb = try ImageCodec.encode(try ImageCodec.decode(input).image, options: png)
        XCTAssertEqual(pngHeader(rgb).colorType, 2)
        XCTAssertLessThan(Double(grey.count), 0.6 * Double(rgb.count), "grey \(grey.count) B, RGB \(rgb.count) B")
        XCTAssertLessThan(Double(grey.count), 1.2 * Double(input.count), "grey \(grey.count) B, ImageMagick's \(input.count) B")
    }

    func testBitDepthOverridesTheInputs() throws {
        let rgb16 = try Fixtures.bytes("rgb16.png")
        let down = try render(rgb16, options: .init(format: .png, bitDepth: 8)).bytes
        XCTAssertEqual(pngHeader(down).depth, 8)
        for (a, b) in zip(try ImageCodec.decode(down).image.pixels, try ImageCodec.decode(rgb16).image.pixels) {
            assertPixel(a, b, tolerance: 0.5 / 255 + 1e-6, "16 → 8 bits rounds to nearest")
        }
        let rgb8 = try Fixtures.bytes("rgb8.png")
        let up = try render(rgb8, options: .init(format: .png, bitDepth: 16)).bytes
        XCTAssertEqual(pngHeader(up).depth, 16)
        XCTAssertEqual(try identify(up), "srgb 16")
        for (a, b) in zip(try ImageCodec.decode(up).image.pixels, try ImageCodec.decode(rgb8).image.pixels) {
            assertPixel(a, b, tolerance: 1e-6, "8 → 16 bits is exact (v · 257)")
        }
    }

    func testPaletteStaysPaletteWhileTheColoursFit() throws {
        let input = try made(["-seed", "5", "-size", "64x48", "plasma:fractal", "-colors", "50"], format: "PNG8")
        XCTAssertEqual(pngHeader(input).colorType, 3)
        let same = try render(input, options: png).bytes
        XCTAssertEqual(pngHeader(same).colorType, 3)
        XCTAssertEqual(try ImageCodec.decode(same).image.pixels, try ImageCodec.decode(input).image.pixels)
        let rgb = try ImageCodec.encode(try ImageCodec.decode(input).image, options: png)
        XCTAssertLessThan(Double(same.count), 0.7 * Double(rgb.count), "palette \(same.count) B, RGB \(rgb.count) B")
        // A blur makes thousands of colours: RGB then.
        let blurred = try render(input, "gaussian_blur radius=4", options: png).bytes
        XCTAssertEqual(pngHeader(blurred).colorType, 2)
        // Transparency fits in tRNS: the fixture's four colours with alphas 255, 128, 0, 255.
        let trns = try Fixtures.bytes("palette_trns.png")
        let kept = try render(trns, options: png).bytes
        XCTAssertEqual(pngHeader(kept).colorType, 3)
        XCTAssertEqual(try ImageCodec.decode(kept).image.pixels, try ImageCodec.decode(trns).image.pixels)
        XCTAssertEqual(try identify(kept), "srgba 8")
    }

    func testCompressionLevelTradesSizeNotPixels() throws {
        let input = try Fixtures.bytes("rgba16.png")
        let stored = try render(input, "resize scale=8", options: .init(format: .png, compression: 0)).bytes
        let smallest = try render(input, "resize scale=8", options: .init(format: .png, compression: 9)).bytes
        XCTAssertGreaterThan(stored.count, smallest.count)
        XCTAssertEqual(try ImageCodec.decode(stored).image.pixels, try ImageCodec.decode(smallest).image.pixels)
    }
}
