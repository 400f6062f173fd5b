import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// Light, deterministic fuzzing: fixtures with bytes flipped, runs overwritten, pieces cut out or
/// the file truncated, a few hundred variants each from a fixed seed. Every decode must either
/// produce a consistent image or throw a `CodecError` with a message; a crash, a hang or a
/// leak-then-abort in the C shims would take the test process down with it.
///
/// PNG chunks carry CRCs, and libpng rejects a bad CRC before looking further, so after mutating
/// a PNG the CRCs are recomputed: the mutations then reach the header checks, zlib and the
/// row filters instead of stopping at the checksum.
final class MutationFuzzTests: XCTestCase {
    static let fixtures = ["rgba8.png", "rgba8_interlaced.png", "palette_trns.png", "gray1.png", "rgba16.png",
                           "rgb.jpg", "progressive.jpg", "cmyk.jpg", "orientation6.jpg", "gray.jpg",
                           "rgba16_lzw.tif", "noise_tiled.tif", "rgba8_lossless.webp", "noise.webp", "animated.webp",
                           "noise.heic", "noise.avif", "grid.heic", "wavefront.heic", "noise.jxl", "noise_transcoded.jxl",
                           "rgba16_lossless.jxl"]
    static let variantsPerFixture = 300
    /// Small enough that a mutated header declaring a huge image is refused, not allocated.
    static let limits = DecodeLimits(maxPixels: 1 << 20, maxFileBytes: 1 << 20)

    func testMutatedFilesDecodeOrFailWithACodecError() throws {
        var rng = SeededGenerator(seed: 0x0DA2_C200)
        var decoded = 0, failed = [CodecError.Code: Int]()
        for name in Self.fixtures {
            let original = try Fixtures.bytes(name)
            for variant in 0..<Self.variantsPerFixture {
                var bytes = Self.mutate(original, using: &rng)
                if name.hasSuffix(".png") { Self.fixChunkCRCs(&bytes) }
                let label = "\(name) variant \(variant)"
                do {
                    let (image, info) = try ImageCodec.decode(bytes, limits: Self.limits)
                    XCTAssertGreaterThan(image.width, 0, label)
                    XCTAssertGreaterThan(image.height, 0, label)
                    XCTAssertEqual(image.pixels.count, image.width * image.height, label)
                    XCTAssertLessThanOrEqual(info.width * info.height, Self.limits.maxPixels, label)
                    decoded += 1
                } catch {
                    XCTAssertFalse(error.message.isEmpty, label)
                    failed[error.code, default: 0] += 1
                }
                do { _ = try ImageCodec.readInfo(bytes) } catch { XCTAssertFalse(error.message.isEmpty, label) }
            }
        }
        // The mutations must exercise both outcomes, or the test proves little.
        XCTAssertGreaterThan(decoded, 0)
        XCTAssertGreaterThan(failed.values.reduce(0, +), 0)
        XCTAssertGreaterThan(failed.count, 1, "several kinds of failure: \(failed)")
    }

    /// One to four random edits of `bytes`.
    static func mutate(_ bytes: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard out.count > 8 else { break }
            // Keep the signature most of the time, so the decoders get past the sniffing.
            let position = Int.random(in: (out.count > 16 ? 8 : 0)..<out.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: out[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: out[position] = [0x00, 0xFF, 0x7F, 0x80].randomElement(using: &rng)!
            case 2:
                let end = min(out.count, position + Int.random(in: 1...8, using: &rng))
                for i in position..<end { out[i] = UInt8.random(in: 0...255, using: &rng) }
            case 3: out.removeSubrange(position..<min(out.count, position + Int.random(in: 1...32, using: &rng)))
            default: out.removeSubrange(position...)
            }
        }
        return out
    }

    /// Rewrites the CRC of every whole chunk after the PNG signature; stops at a chunk that runs
    /// past the end of the data.
    static func fixChunkCRCs(_ bytes: inout [UInt8]) {
        var at = 8
        while at + 12 <= bytes.count {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = at + 8 + length
            guard end + 4 <= bytes.count else { return }
            let crc = crc32(bytes[(at + 4)..<end])
            for i in 0..<4 { bytes[end + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
            at = end + 4
        }
    }

    /// The CRC-32 of PNG chunks (ISO 3309, reflected, polynomial 0xEDB88320).
    static func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    func testChunkCRCHelperMatchesAnUntouchedFixture() throws {
        let original = try Fixtures.bytes("rgba8.png")
        var copy = original
        Self.fixChunkCRCs(&copy)
        XCTAssertEqual(copy, original, "recomputed CRCs equal the ones libpng wrote")
    }
}
