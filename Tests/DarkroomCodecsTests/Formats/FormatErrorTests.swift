import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// TIFF, WebP, HEIF, AVIF and JPEG XL files that are cut short, corrupt or declare too many pixels fail
/// with a CodecError, as PNG and JPEG do; a huge header is refused before any pixel memory.
final class FormatErrorTests: XCTestCase {
    static let fixtures = ["rgba16_lzw.tif", "noise_tiled.tif", "rgba8_lossless.webp", "noise.webp", "animated.webp",
                           "noise.heic", "noise.avif", "noise.jxl", "noise_transcoded.jxl", "rgba16_lossless.jxl"]

    private func failure(_ body: () throws -> Void) -> CodecError? {
        do { try body(); return nil } catch let error as CodecError { return error } catch { XCTFail("\(error)"); return nil }
    }

    func testFixturesDecode() throws {
        for name in Self.fixtures {
            let (image, info) = try ImageCodec.decode(try Fixtures.bytes(name))
            XCTAssertEqual(image.size, Size(width: info.width, height: info.height), name)
        }
    }

    func testTruncatedFilesFailCleanly() throws {
        for name in Self.fixtures {
            let bytes = try Fixtures.bytes(name)
            for keep in [bytes.count / 2, bytes.count - 10, 40] {
                let error = failure { _ = try ImageCodec.decode(Array(bytes.prefix(keep))) }
                XCTAssertNotNil(error, "\(name) cut to \(keep) bytes decoded")
                if let error {
                    XCTAssertTrue([.truncated, .corrupt].contains(error.code), "\(name) cut to \(keep): \(error)")
                    XCTAssertFalse(error.message.isEmpty)
                }
            }
        }
    }

    func testCorruptDataFailsCleanly() throws {
        for name in Self.fixtures {
            var bytes = try Fixtures.bytes(name)
            // Overwrite the second half (the image data in every one of these files) with noise.
            var rng = SeededGenerator(seed: 7)
            for i in (bytes.count / 2)..<bytes.count { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
            if let error = failure({ _ = try ImageCodec.decode(bytes) }) {
                XCTAssertTrue([.truncated, .corrupt, .unsupported].contains(error.code), "\(name): \(error)")
            }
        }
    }

    /// A header declaring 1×100000000 pixels (WebP cannot: 16384 a side is its most, so its
    /// header declares 16384×16384) fails as too_large before anything is decoded, under a
    /// limit below that (the default, 100000000, would take exactly 1×100000000).
    func testHugeHeadersAreTooLargeBeforeDecoding() throws {
        let files: [(String, [UInt8])] = [("TIFF", Self.hugeTIFF()), ("WebP", try Self.hugeWebP()),
                                          ("HEIC", try Self.hugeISPE("noise.heic")), ("AVIF", try Self.hugeISPE("noise.avif")),
                                          ("JPEG XL", Self.hugeJXL())]
        for (name, bytes) in files {
            let error = failure { _ = try ImageDecoder(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 99_999_999))) }
            XCTAssertEqual(error?.code, .tooLarge, "\(name): \(String(describing: error))")
        }
        // The header alone is still readable: the report can say how large the image is.
        XCTAssertEqual(try ImageCodec.readInfo(Self.hugeTIFF()).height, 100_000_000)
        XCTAssertEqual(try ImageCodec.readInfo(try Self.hugeWebP()).width, 16384)
        XCTAssertEqual(try ImageCodec.readInfo(Self.hugeJXL()).height, 100_000_000)
    }

    /// A little-endian TIFF whose one strip claims 1×100000000 grey pixels.
    static func hugeTIFF() -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        let entries: [(tag: Int, type: Int, value: Int)] = [(256, 4, 1), (257, 4, 100_000_000), (258, 3, 8), (259, 3, 1),
                                                            (262, 3, 1), (273, 4, 8 + 2 + 9 * 12 + 4), (277, 3, 1),
                                                            (278, 4, 100_000_000), (279, 4, 100_000_000)]
        var out: [UInt8] = Array("II".utf8) + le16(42) + le32(8) + le16(entries.count)
        for e in entries { out += le16(e.tag) + le16(e.type) + le32(1) + (e.type == 3 ? le16(e.value) + [0, 0] : le32(e.value)) }
        return out + le32(0) + [UInt8](repeating: 0x80, count: 64)
    }

    /// A lossless WebP whose VP8L header is patched to 16384×16384.
    static func hugeWebP() throws -> [UInt8] {
        var bytes = try Fixtures.bytes("rgba8_lossless.webp")
        XCTAssertEqual(Array(bytes[12..<16]), Array("VP8L".utf8), "a simple lossless file")
        let old = bytes[21..<25].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let patched = (old & ~0x0FFF_FFFF) | 16383 | 16383 << 14
        for i in 0..<4 { bytes[21 + i] = UInt8(patched >> (8 * i) & 0xFF) }
        return bytes
    }

    /// A HEIF whose ispe (image spatial extents) properties say 1×100000000.
    static func hugeISPE(_ name: String) throws -> [UInt8] {
        var bytes = try Fixtures.bytes(name)
        let ispe = Array("ispe".utf8)
        var patched = 0
        for at in 0..<(bytes.count - 16) where Array(bytes[at..<at + 4]) == ispe {
            bytes.replaceSubrange((at + 8)..<(at + 16), with: [0, 0, 0, 1, 0x05, 0xF5, 0xE1, 0x00])
            patched += 1
        }
        XCTAssertGreaterThan(patched, 0)
        return bytes
    }

    /// A bare JPEG XL codestream whose size header says 1×100000000, with the default image
    /// metadata (8-bit sRGB) and no frame: written bit by bit, least significant first.
    static func hugeJXL() -> [UInt8] {
        var bits = [Bool]()
        func put(_ value: Int, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
        put(0, 1)                           // not a small size
        put(3, 2); put(100_000_000 - 1, 30) // ysize: the 30-bit distribution
        put(0, 3)                           // no aspect ratio: xsize follows
        put(0, 2); put(1 - 1, 9)            // xsize: the 9-bit distribution
        put(1, 1)                           // image metadata: all default
        var bytes: [UInt8] = [0xFF, 0x0A]
        for at in stride(from: 0, to: bits.count, by: 8) {
            bytes.append(bits[at..<min(at + 8, bits.count)].enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) })
        }
        return bytes + [UInt8](repeating: 0, count: 64)
    }
}
