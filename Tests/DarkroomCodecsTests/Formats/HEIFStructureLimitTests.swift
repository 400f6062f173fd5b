import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// What a HEIF states about the parts it is built from is checked before libheif acts on it: sizes
/// against the image's own and the pixel limit before anything is allocated (a clean aperture over
/// a larger coded image, an HEVC stream declaring a larger picture than its item, a grid tile that
/// is an overlay with a huge canvas: 7.5 KB that made libheif take 2.3 GB), and derived images
/// that refer back to themselves (a grid among its own tiles, which libheif recursed into until the
/// stack overflowed). Both were found by fuzzing.
final class HEIFStructureLimitTests: XCTestCase {
    /// grid_clap.heic shows its 192×128 grid through a clean aperture as an 8×8 crop: the 64
    /// pixels shown fit a limit of 1000, the 24576 libheif would decode do not.
    func testACleanApertureDoesNotHideTheCodedSize() throws {
        let bytes = try Fixtures.bytes("grid_clap.heic")
        XCTAssertEqual(try ImageCodec.readInfo(bytes).width, 8)
        XCTAssertThrowsError(try ImageDecoder(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 1000)))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("coded at 192×128") == true, "\(error)")
        }
        let decoder = try ImageDecoder(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 192 * 128)))
        XCTAssertEqual(decoder.size, Size(width: 8, height: 8))
    }

    /// noise.heic's 64×64 item, its 'ispe' rewritten to 16×16: the HEVC stream still declares
    /// 64×64, which the decoder refuses over a limit of 1000 pixels before libde265 allocates it.
    /// Unchanged, the file decodes at a limit of exactly its 4096 pixels.
    func testAnHEVCStreamLargerThanItsItemIsRefusedBeforeDecoding() throws {
        let bytes = try Fixtures.bytes("noise.heic")
        XCTAssertNoThrow(try ImageDecoder(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 4096))))
        let small = try Self.stating16x16(bytes)
        XCTAssertEqual(try ImageCodec.readInfo(small).width, 16)
        XCTAssertThrowsError(try ImageDecoder(small, options: DecodeOptions(limits: DecodeLimits(maxPixels: 1000)))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("64×64 picture") == true, "\(error)")
        }
    }

    /// The same for AV1: noise.avif's 64×64 item stated as 16×16 is refused by dav1d's frame
    /// limit, which darkroom's AV1 plugin sets from the decode's, before the frame is allocated.
    func testAnAV1StreamLargerThanItsItemIsRefusedBeforeDecoding() throws {
        let bytes = try Fixtures.bytes("noise.avif")
        XCTAssertNoThrow(try ImageDecoder(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 4096))))
        let small = try Self.stating16x16(bytes)
        XCTAssertThrowsError(try ImageDecoder(small, options: DecodeOptions(limits: DecodeLimits(maxPixels: 1000)))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("AV1 stream in it declares a frame over the limit of 1000") == true, "\(error)")
        }
    }

    /// The fuzzed grid whose second-row tile is an 'iovl' item over HEVC bytes: its canvas, read
    /// from those bytes, is refused before libheif allocates it.
    func testAGridTileWithAHugeOverlayCanvasIsTooLarge() throws {
        let bytes = try [UInt8](Data(contentsOf: FuzzRegressionTests.fuzzDirectory.appendingPathComponent("heif-overlay-tile-canvas.heic")))
        XCTAssertThrowsError(try ImageDecoder(bytes, options: DecodeOptions())) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("item 4, an overlay of 26992×29296 pixels") == true, "\(error)")
        }
    }

    /// grid.heic's grid description (in 'idat') stating a 1200×1100 canvas for its 192×128 image:
    /// refused at a limit of a million pixels, which the image's own size fits, before libheif
    /// allocates the canvas (it would otherwise decode it and find it does not match the image).
    func testAGridStatingALargerCanvasThanItsImageIsTooLarge() throws {
        var bytes = try Fixtures.bytes("grid.heic")
        let idat = try XCTUnwrap(Self.offset(of: Array("idat".utf8), in: bytes))
        // version, flags, rows − 1, columns − 1, then the 16-bit output width and height
        XCTAssertEqual(Array(bytes[idat + 4..<idat + 12]), [0, 0, 1, 2, 0, 192, 0, 128])
        bytes.replaceSubrange(idat + 8..<idat + 12, with: [0x04, 0xB0, 0x04, 0x4C])
        XCTAssertThrowsError(try ImageDecoder(bytes, options: DecodeOptions(limits: DecodeLimits(maxPixels: 1_000_000)))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("item 7, a grid of 1200×1100 pixels") == true, "\(error)")
        }
        XCTAssertNoThrow(try ImageDecoder(try Fixtures.bytes("grid.heic"), options: DecodeOptions(limits: DecodeLimits(maxPixels: 192 * 128))))
    }

    /// grid.heic with its second tile reference rewritten to the grid itself (item 7), as the
    /// fuzzer mutated it: refused as corrupt before decoding, naming the item.
    func testAGridAmongItsOwnTilesIsCorrupt() throws {
        var bytes = try Fixtures.bytes("grid.heic")
        let dimg = try XCTUnwrap(Self.offset(of: Array("dimg".utf8), in: bytes))
        // dimg: from item (2 bytes), count (2), then the tiles' items; the second tile's is item 2
        XCTAssertEqual(Array(bytes[dimg + 8..<dimg + 12]), [0, 1, 0, 2])
        bytes.replaceSubrange(dimg + 10..<dimg + 12, with: [0, 7])
        // and the same with the reference's box stating 1.3 GB, which libheif reads past (fuzzed too)
        var huge = bytes
        huge.replaceSubrange(dimg - 4..<dimg, with: [0x4d, 0x4d, 0x00, 0x2b])
        for file in [bytes, huge] {
            XCTAssertThrowsError(try ImageDecoder(file, options: DecodeOptions())) { error in
                XCTAssertEqual((error as? CodecError)?.code, .corrupt, "\(error)")
                XCTAssertTrue((error as? CodecError)?.message.contains("item 7 is built from itself") == true, "\(error)")
            }
        }
        XCTAssertNoThrow(try ImageDecoder(try Fixtures.bytes("grid.heic"), options: DecodeOptions()))
    }

    /// The file with its first 'ispe' box (the primary item's, in these fixtures) stating 16×16.
    private static func stating16x16(_ bytes: [UInt8]) throws -> [UInt8] {
        var small = bytes
        let ispe = try XCTUnwrap(offset(of: Array("ispe".utf8), in: small))
        for field in [ispe + 8, ispe + 12] { small.replaceSubrange(field..<field + 4, with: [0, 0, 0, 16]) }
        return small
    }

    private static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
