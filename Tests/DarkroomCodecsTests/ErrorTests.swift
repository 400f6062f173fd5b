import DarkroomCodecs
@testable import DarkroomCore
import Foundation
import XCTest

/// Bad input must come back as a CodecError with the right code, never crash or exit the process.
final class ErrorTests: XCTestCase {
    private func assertCode(
        _ expected: CodecError.Code, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            XCTFail("expected \(expected), got success", file: file, line: line)
        } catch let error as CodecError {
            XCTAssertEqual(error.code, expected, "\(error)", file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        } catch {
            XCTFail("expected CodecError, got \(error)", file: file, line: line)
        }
    }

    /// Offset of the first byte of entropy-coded data after the first SOS marker.
    private func scanStart(_ jpeg: [UInt8]) throws -> Int {
        var i = 2
        while i + 4 <= jpeg.count {
            XCTAssertEqual(jpeg[i], 0xFF)
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if marker == 0xDA { return i + 2 + length }
            i += 2 + length
        }
        throw XCTSkip("no SOS marker found")
    }

    func testEmptyAndTextAreNotImages() {
        assertCode(.notAnImage) { _ = try ImageCodec.decode([]) }
        assertCode(.notAnImage) { _ = try ImageCodec.readInfo([]) }
        let text = Array("darkroom watches folders\n".utf8)
        assertCode(.notAnImage) { _ = try ImageCodec.decode(text) }
        assertCode(.notAnImage) { _ = try ImageCodec.readInfo(text) }
    }

    func testTruncatedJPEG() throws {
        for name in ["noise.jpg", "progressive.jpg"] {
            let jpeg = try Fixtures.bytes(name)
            let start = try scanStart(jpeg)
            let cut = Array(jpeg.prefix((start + jpeg.count) / 2))
            assertCode(.truncated) { _ = try ImageCodec.decode(cut) }
        }
        let header = Array(try Fixtures.bytes("rgb.jpg").prefix(40))
        assertCode(.truncated) { _ = try ImageCodec.readInfo(header) }
    }

    func testTruncatedPNG() throws {
        for name in ["rgba16.png", "rgba8_interlaced.png"] {
            let png = try Fixtures.bytes(name)
            let cut = Array(png.prefix(png.count / 2))
            assertCode(.truncated) { _ = try ImageCodec.decode(cut) }
        }
        assertCode(.truncated) { _ = try ImageCodec.readInfo(Array(try Fixtures.bytes("rgb8.png").prefix(20))) }
    }

    /// A marker in the middle of the scan data: the rest of the image is missing ("premature
    /// end of data segment"), so the pixels below it would be grey.
    func testCorruptJPEGScan() throws {
        var jpeg = try Fixtures.bytes("noise.jpg")
        let start = try scanStart(jpeg)
        let middle = (start + jpeg.count) / 2
        jpeg.replaceSubrange(middle..<middle + 2, with: [0xFF, 0xD9])
        assertCode(.corrupt) { _ = try ImageCodec.decode(jpeg) }
    }

    /// Stray bytes between segments ("extraneous bytes before marker") lose no pixel: libvips
    /// and ImageMagick decode such files, and so does darkroom, with a warning.
    func testExtraneousBytesBeforeAMarkerAreForgivenWithAWarning() throws {
        let clean = try Fixtures.bytes("noise.jpg")
        var jpeg = clean
        // Between the last header segment and the start-of-scan marker.
        let sos = try XCTUnwrap((2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        jpeg.insert(contentsOf: [0x12, 0x34, 0x56], at: sos)
        let (image, info) = try ImageCodec.decode(jpeg)
        XCTAssertEqual(image, try ImageCodec.decode(clean).image)
        XCTAssertEqual(info.warning?.contains("extraneous bytes"), true, info.warning ?? "no warning")
        XCTAssertNil(try ImageCodec.decode(clean).info.warning)
    }

    func testCorruptPNGChecksum() throws {
        var png = try Fixtures.bytes("rgba16.png")
        png[png.count / 2] ^= 0x55   // inside IDAT: its CRC no longer matches
        assertCode(.corrupt) { _ = try ImageCodec.decode(png) }
    }

    func testHugeDeclaredSizeFailsBeforeAllocating() throws {
        let png = try Fixtures.bytes("huge_header.png")
        XCTAssertLessThan(png.count, 100)
        assertCode(.tooLarge) { _ = try ImageCodec.decode(png) }
        assertCode(.tooLarge) { _ = try ImageCodec.decode(try Fixtures.bytes("rgb.jpg"), limits: DecodeLimits(maxPixels: 32 * 16 - 1)) }
        XCTAssertNoThrow(try ImageCodec.decode(try Fixtures.bytes("rgb.jpg"), limits: DecodeLimits(maxPixels: 32 * 16)))
    }

    func testFileOverByteLimit() throws {
        let bytes = try Fixtures.bytes("noise.jpg")
        let limits = DecodeLimits(maxFileBytes: bytes.count - 1)
        assertCode(.tooLarge) { _ = try ImageCodec.decode(bytes, limits: limits) }
        let loaded = try ImageCodec.decode(bytes, limits: DecodeLimits(maxFileBytes: bytes.count))
        XCTAssertEqual(loaded.image.width, 64)
    }

    func testEncodingAnEmptyImageFails() {
        assertCode(.encodeFailed) { _ = try ImageCodec.encode(Image(width: 0, height: 0), options: .init(format: .png)) }
        assertCode(.encodeFailed) { _ = try ImageCodec.encode(Image(width: 0, height: 3), options: .init(format: .jpeg)) }
    }
}
