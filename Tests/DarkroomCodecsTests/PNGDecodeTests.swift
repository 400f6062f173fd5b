import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// Every PNG layout libpng can hand us comes back as the premultiplied float pixels it encodes.
final class PNGDecodeTests: XCTestCase {
    private func decode(_ name: String) throws -> (image: Image, info: ImageInfo) {
        try ImageCodec.decode(Fixtures.bytes(name))
    }

    private func forEachPixel(_ image: Image, _ body: (Int, Int, Pixel) -> Void) {
        XCTAssertEqual(image.width, FixturePattern.width)
        XCTAssertEqual(image.height, FixturePattern.height)
        for y in 0..<image.height { for x in 0..<image.width { body(x, y, image[x, y]) } }
    }

    func testGray8() throws {
        let (image, info) = try decode("gray8.png")
        XCTAssertEqual(info.colorSpace, "gray")
        XCTAssertEqual(info.channels, 1)
        XCTAssertFalse(info.hasAlpha)
        forEachPixel(image) { x, y, p in
            let v = FixturePattern.gray8(x, y)
            assertPixel(p, straight8(v, v, v), "(\(x),\(y))")
        }
    }

    func testGray1ExpandsToBlackAndWhite() throws {
        let (image, info) = try decode("gray1.png")
        XCTAssertEqual(info.bitDepth, 1)
        forEachPixel(image) { x, y, p in
            let v = (x + y) % 2 == 1 ? 255 : 0
            assertPixel(p, straight8(v, v, v), "(\(x),\(y))")
        }
    }

    func testGrayAlpha8IsPremultiplied() throws {
        let (image, info) = try decode("gray_alpha8.png")
        XCTAssertTrue(info.hasAlpha)
        XCTAssertEqual(info.channels, 2)
        forEachPixel(image) { x, y, p in
            let v = FixturePattern.gray8(x, y), a = FixturePattern.rgba8(x, y)[3]
            assertPixel(p, FixturePattern.premultiplied([v, v, v, a]), "(\(x),\(y))")
        }
    }

    func testGrayWithTransparentValue() throws {
        let (image, info) = try decode("gray8_trns.png")
        XCTAssertTrue(info.hasAlpha)
        forEachPixel(image) { x, y, p in
            let v = 30 * x
            assertPixel(p, v == 60 ? .zero : straight8(v, v, v), "(\(x),\(y))")
        }
    }

    func testRGB8() throws {
        let (image, info) = try decode("rgb8.png")
        XCTAssertEqual(info.colorSpace, "rgb")
        XCTAssertEqual(info.channels, 3)
        XCTAssertEqual(info.bitDepth, 8)
        forEachPixel(image) { x, y, p in
            let s = FixturePattern.rgba8(x, y)
            assertPixel(p, straight8(s[0], s[1], s[2]), "(\(x),\(y))")
        }
    }

    func testRGBWithTransparentColour() throws {
        let (image, _) = try decode("rgb8_trns.png")
        forEachPixel(image) { x, y, p in
            let s = FixturePattern.rgba8(x, y)
            let transparent = Array(s.prefix(3)) == Array(FixturePattern.rgba8(3, 2).prefix(3))
            assertPixel(p, transparent ? .zero : straight8(s[0], s[1], s[2]), "(\(x),\(y))")
        }
        XCTAssertEqual(image[3, 2], .zero)
    }

    func testRGBA8IsPremultiplied() throws {
        let (image, info) = try decode("rgba8.png")
        XCTAssertTrue(info.hasAlpha)
        XCTAssertEqual(info.channels, 4)
        forEachPixel(image) { x, y, p in
            assertPixel(p, FixturePattern.premultiplied(FixturePattern.rgba8(x, y)), "(\(x),\(y))")
        }
    }

    func testPaletteWithTRNS() throws {
        let (image, info) = try decode("palette_trns.png")
        XCTAssertEqual(info.colorSpace, "palette")
        XCTAssertTrue(info.hasAlpha)
        let palette = [straight8(255, 0, 0), straight8(0, 255, 0, 128), .zero, straight8(255, 255, 255)]
        forEachPixel(image) { x, y, p in
            assertPixel(p, palette[(x + y) % 4].premultiplied, "(\(x),\(y))")
        }
    }

    func testInterlacedMatchesNonInterlaced() throws {
        let (image, info) = try decode("rgba8_interlaced.png")
        XCTAssertTrue(info.interlaced)
        forEachPixel(image) { x, y, p in
            assertPixel(p, FixturePattern.premultiplied(FixturePattern.rgba8(x, y)), "(\(x),\(y))")
        }
        XCTAssertEqual(image, try decode("rgba8.png").image)
    }

    /// 16-bit samples such as 17/65535 have no 8-bit equivalent: only a 16-bit path gets them right.
    func testRGBA16KeepsPrecision() throws {
        let (image, info) = try decode("rgba16.png")
        XCTAssertEqual(info.bitDepth, 16)
        forEachPixel(image) { x, y, p in
            assertPixel(p, FixturePattern.premultiplied(FixturePattern.rgba16(x, y), maxValue: 65535), tolerance: 1e-6, "(\(x),\(y))")
        }
        XCTAssertNotEqual((image[0, 0][0] * 255).rounded() / 255, image[0, 0][0], "value was quantised to 8 bits")
    }

    func testRGB16AndGray16() throws {
        let rgb = try decode("rgb16.png").image
        let gray = try decode("gray16.png").image
        forEachPixel(rgb) { x, y, p in
            var s = FixturePattern.rgba16(x, y)
            s[3] = 65535
            assertPixel(p, FixturePattern.premultiplied(s, maxValue: 65535), tolerance: 1e-6, "rgb (\(x),\(y))")
        }
        forEachPixel(gray) { x, y, p in
            let v = FixturePattern.rgba16(x, y)[0]
            assertPixel(p, FixturePattern.premultiplied([v, v, v, 65535], maxValue: 65535), tolerance: 1e-6, "gray (\(x),\(y))")
        }
    }
}
