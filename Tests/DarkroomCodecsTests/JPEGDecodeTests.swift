import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// The JPEG fixtures are 32×16: a flat left half and a flat right half, each filling whole 16×16
/// MCUs, so after lossy coding at quality 95 the centres of the halves stay within a few levels.
final class JPEGDecodeTests: XCTestCase {
    /// JPEG is lossy: 4/255 covers quantisation of a flat block at quality 95 plus chroma rounding.
    let tolerance: Float = 4 / 255

    private func assertHalves(_ image: Image, left: Pixel, right: Pixel, file: StaticString = #filePath, line: UInt = #line) {
        let midY = image.height / 2
        for x in [image.width / 8, image.width / 4] {
            assertPixel(image[x, midY], left, tolerance: tolerance, "left (\(x),\(midY))", file: file, line: line)
            assertPixel(image[image.width - 1 - x, midY], right, tolerance: tolerance, "right", file: file, line: line)
        }
    }

    func testRGB() throws {
        let (image, info) = try ImageCodec.decode(Fixtures.bytes("rgb.jpg"))
        XCTAssertEqual(info, ImageInfo(format: .jpeg, width: 32, height: 16, bitDepth: 8, channels: 3,
                                       colorSpace: "rgb", hasAlpha: false))
        XCTAssertEqual(image.width, 32)
        XCTAssertEqual(image.height, 16)
        assertHalves(image, left: straight8(200, 40, 40), right: straight8(30, 90, 220))
        XCTAssertTrue(image.isOpaque)
    }

    func testGray() throws {
        let (image, info) = try ImageCodec.decode(Fixtures.bytes("gray.jpg"))
        XCTAssertEqual(info.colorSpace, "gray")
        XCTAssertEqual(info.channels, 1)
        assertHalves(image, left: straight8(60, 60, 60), right: straight8(190, 190, 190))
    }

    func testProgressive() throws {
        let (image, info) = try ImageCodec.decode(Fixtures.bytes("progressive.jpg"))
        XCTAssertTrue(info.interlaced)
        assertHalves(image, left: straight8(200, 40, 40), right: straight8(30, 90, 220))
    }

    /// Adobe CMYK is stored inverted; converted naively (no ICC): R = (1 − C)(1 − K) and so on.
    /// C,M,Y,K = 0,200,200,0 gives (255, 55, 55); 200,100,0,55 gives (43, 122, 200).
    func testAdobeCMYK() throws {
        let (image, info) = try ImageCodec.decode(Fixtures.bytes("cmyk.jpg"))
        XCTAssertEqual(info.colorSpace, "cmyk")
        XCTAssertEqual(info.channels, 4)
        assertHalves(image, left: straight8(255, 55, 55), right: straight8(43, 122, 200))
    }

    func testShrinkOnLoad() throws {
        let bytes = try Fixtures.bytes("rgb.jpg")
        for (shrink, size) in [(2, (16, 8)), (4, (8, 4)), (8, (4, 2))] {
            let (image, info) = try ImageCodec.decode(bytes, jpegShrink: shrink)
            XCTAssertEqual(image.width, size.0, "shrink \(shrink)")
            XCTAssertEqual(image.height, size.1, "shrink \(shrink)")
            XCTAssertEqual(info.width, 32, "info reports the stored size")
            assertPixel(image[0, 0], straight8(200, 40, 40), tolerance: tolerance, "shrink \(shrink) left")
            assertPixel(image[image.width - 1, image.height - 1], straight8(30, 90, 220), tolerance: tolerance, "shrink \(shrink) right")
        }
        XCTAssertEqual(try ImageCodec.decode(bytes, jpegShrink: 3).image.width, 16, "3 rounds down to 2")
        XCTAssertEqual(try ImageCodec.decode(Fixtures.bytes("rgba8.png"), jpegShrink: 8).image.width, 8, "PNG ignores shrink")
    }

    func testExifOrientation() throws {
        XCTAssertEqual(try ImageCodec.readInfo(Fixtures.bytes("orientation6.jpg")).orientation, 6)
        XCTAssertEqual(try ImageCodec.decode(Fixtures.bytes("orientation6.jpg")).info.orientation, 6)
        XCTAssertEqual(try ImageCodec.readInfo(Fixtures.bytes("rgb.jpg")).orientation, 1)
    }

    func testICCProfilePresence() throws {
        XCTAssertTrue(try ImageCodec.readInfo(Fixtures.bytes("icc.jpg")).hasICCProfile)
        XCTAssertFalse(try ImageCodec.readInfo(Fixtures.bytes("rgb.jpg")).hasICCProfile)
    }
}
