@testable import DarkroomCodecs
import XCTest

final class FormatAndInfoTests: XCTestCase {
    func testDetectByMagicBytes() throws {
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("rgb8.png")), .png)
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("rgb.jpg")), .jpeg)
        XCTAssertEqual(ImageFormat.detect(Array("GIF89a".utf8)), .gif)
        XCTAssertNil(ImageFormat.detect(Array("BM6\u{0}\u{0}\u{0}".utf8)))
        XCTAssertNil(ImageFormat.detect([]))
    }

    func testFromExtension() {
        XCTAssertEqual(ImageFormat.fromExtension("PNG"), .png)
        XCTAssertEqual(ImageFormat.fromExtension("jpg"), .jpeg)
        XCTAssertEqual(ImageFormat.fromExtension("JPEG"), .jpeg)
        XCTAssertEqual(ImageFormat.fromExtension(".jpg"), .jpeg)
        XCTAssertEqual(ImageFormat.fromExtension("gif"), .gif)
        XCTAssertNil(ImageFormat.fromExtension("bmp"))
    }

    func testReadInfoOfPNGs() throws {
        XCTAssertEqual(try ImageCodec.readInfo(Fixtures.bytes("rgba16.png")),
                       ImageInfo(format: .png, width: 8, height: 6, bitDepth: 16, channels: 4, colorSpace: "rgb", hasAlpha: true))
        let palette = try ImageCodec.readInfo(Fixtures.bytes("palette_trns.png"))
        XCTAssertEqual(palette.colorSpace, "palette")
        XCTAssertEqual(palette.channels, 1)
        XCTAssertEqual(palette.bitDepth, 2)
        XCTAssertTrue(palette.hasAlpha)
        XCTAssertTrue(try ImageCodec.readInfo(Fixtures.bytes("rgba8_interlaced.png")).interlaced)
    }

    func testReadInfoOfHugeHeaderDoesNotAllocate() throws {
        let info = try ImageCodec.readInfo(Fixtures.bytes("huge_header.png"))
        XCTAssertEqual(info.width, 100_000)
        XCTAssertEqual(info.height, 100_000)
    }

    /// Hand-made TIFF streams in both byte orders, with the orientation tag after another tag.
    func testExifOrientationParser() {
        let little: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0,
                               0x0F, 0x01, 2, 0, 4, 0, 0, 0, 0x41, 0x42, 0x43, 0,
                               0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0]
        XCTAssertEqual(ExifOrientation.parse(little), 8)
        let big: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1,
                            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 3, 0, 0]
        XCTAssertEqual(ExifOrientation.parse(big), 3)
        var outOfRange = big
        outOfRange[19] = 9
        XCTAssertEqual(ExifOrientation.parse(outOfRange), 1)
        XCTAssertEqual(ExifOrientation.parse(Array(big.prefix(12))), 1, "cut-off IFD")
        XCTAssertEqual(ExifOrientation.parse([0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xFF]), 1, "IFD offset out of range")
    }
}
