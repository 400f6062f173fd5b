import DarkroomCodecs
import DarkroomCore
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

    /// Scan data replaced by a run of 0xFF bytes: not a valid Huffman sequence.
    func testCorruptJPEGScan() throws {
        var jpeg = try Fixtures.bytes("noise.jpg")
        let start = try scanStart(jpeg)
        let middle = (start + jpeg.count) / 2
        for i in middle..<middle + 64 { jpeg[i] ^= 0xFF }
        assertCode(.corrupt) { _ = try ImageCodec.decode(jpeg) }
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
        assertCode(.tooLarge) { _ = try ImageCodec.decodeFile(atPath: Fixtures.path("noise.jpg"), limits: limits) }
        let loaded = try ImageCodec.decodeFile(atPath: Fixtures.path("noise.jpg"), limits: DecodeLimits(maxFileBytes: bytes.count))
        XCTAssertEqual(loaded.bytes, bytes)
        XCTAssertEqual(loaded.image.width, 64)
    }

    func testFileErrors() {
        assertCode(.io) { _ = try ImageCodec.decodeFile(atPath: "/nonexistent/darkroom/x.png") }
        assertCode(.io) { _ = try ImageCodec.decodeFile(atPath: Fixtures.directory.path) }
    }

    func testEncodingAnEmptyImageFails() {
        assertCode(.encodeFailed) { _ = try ImageCodec.encode(Image(width: 0, height: 0), options: .init(format: .png)) }
        assertCode(.encodeFailed) { _ = try ImageCodec.encode(Image(width: 0, height: 3), options: .init(format: .jpeg)) }
    }
}
