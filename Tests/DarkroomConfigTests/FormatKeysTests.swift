import XCTest
@testable import DarkroomConfig

/// `format: webp | avif | tiff` (or their extensions) and their keys: WebP `quality`,
/// `lossless`, `effort`; AVIF `quality`, `speed`, `bit_depth: 8 | 10`;
/// TIFF `compression`, `bit_depth`, `tiled`.
final class FormatKeysTests: XCTestCase {
    private let head = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}."

    private func output(_ ext: String, _ keys: String = "") throws -> OutputConfig {
        try parse(head + ext + "'" + keys + " }]\n").watches[0].outputs[0]
    }

    func testFormatsFollowTheExtensionOrTheFormatKey() throws {
        XCTAssertEqual(try output("webp").format, .webp)
        XCTAssertEqual(try output("avif").format, .avif)
        XCTAssertEqual(try output("tif").format, .tiff)
        XCTAssertEqual(try output("TIFF").format, .tiff)
        XCTAssertEqual(try parse("watches:\n  - path: ./in\n    outputs: [{ path: './out/{name}', format: webp }]\n")
            .watches[0].outputs[0].format, .webp)
    }

    func testEachFormatsKeysAreRead() throws {
        let webp = try output("webp", ", quality: 80, lossless: true, effort: 6")
        XCTAssertEqual([webp.quality, webp.encoding.effort], [80, 6])
        XCTAssertTrue(webp.encoding.lossless)
        let avif = try output("avif", ", quality: 50, speed: 8, bit_depth: 8")
        XCTAssertEqual([avif.quality, avif.encoding.speed, avif.encoding.bitDepth], [50, 8, 8])
        let tiff = try output("tif", ", compression: lzw, bit_depth: 16, tiled: true")
        XCTAssertEqual(tiff.encoding.tiffCompression, .lzw)
        XCTAssertEqual(tiff.encoding.bitDepth, 16)
        XCTAssertTrue(tiff.encoding.tiled)
        let defaults = try output("tif")
        XCTAssertEqual(defaults.encoding.tiffCompression, .none)
        XCTAssertFalse(defaults.encoding.tiled)
        XCTAssertEqual(try output("webp").encoding.effort, 4)
        XCTAssertEqual(try output("avif").encoding.speed, 5)
    }

    /// AVIF is 8- or 10-bit (nil: 8); PNG's 16 and other depths are refused with the choices.
    func testAVIFBitDepthIsEightOrTen() throws {
        XCTAssertEqual(try output("avif", ", bit_depth: 10").encoding.bitDepth, 10)
        XCTAssertNil(try output("avif").encoding.bitDepth)
        assertSingle(diagnostics(head + "avif', bit_depth: 16 }]\n"), at: (3, 55), "bit_depth: expected one of 8, 10, got")
        assertSingle(diagnostics(head + "avif', bit_depth: 12 }]\n"), at: (3, 55), "bit_depth: expected one of 8, 10, got")
        assertSingle(diagnostics(head + "png', bit_depth: 10 }]\n"), at: (3, 54), "bit_depth: expected one of 8, 16, got")
    }

    func testValuesAndKeysOutOfPlace() {
        assertSingle(diagnostics(head + "webp', effort: 7 }]\n"), at: (3, 52), "effort: expected an integer from 0 to 6")
        assertSingle(diagnostics(head + "avif', speed: 10 }]\n"), at: (3, 51), "speed: expected an integer from 0 to 9")
        assertSingle(diagnostics(head + "tif', compression: zip }]\n"), at: (3, 56),
                     "compression: expected one of none, lzw, deflate, jpeg")
        assertSingle(diagnostics(head + "jpg', lossless: true }]\n"), at: (3, 53), "lossless applies to webp and jxl only")
        assertSingle(diagnostics(head + "png', speed: 3 }]\n"), at: (3, 50), "speed applies to avif only")
        assertSingle(diagnostics(head + "webp', tiled: true }]\n"), at: (3, 51), "tiled applies to tiff only")
        assertSingle(diagnostics(head + "webp', bit_depth: 16 }]\n"), at: (3, 55), "bit_depth applies to png, tiff, avif and jxl only")
        assertSingle(diagnostics(head + "tif', compression: jpeg, bit_depth: 16 }]\n"), at: (3, 73),
                     "bit_depth 16 cannot be written with compression: jpeg")
    }
}
