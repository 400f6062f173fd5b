import DarkroomCodecs
import DarkroomConfig
import XCTest

/// A JPEG XL output's keys: quality or distance, effort 1–9, lossless, bit_depth, and
/// lossless_jpeg, which an output with a chain refuses, in `darkroom check`'s words.
final class JPEGXLConfigTests: XCTestCase {
    private let head = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.jxl', "

    func testTheJPEGXLKeysAreRead() throws {
        let config = try parse(head + "distance: 2.5, effort: 9, bit_depth: 16 }]\n")
        let output = try XCTUnwrap(config.watches.first?.outputs.first)
        XCTAssertEqual(output.format, .jxl)
        let options = EncodeOptions(format: .jxl, encoding: output.encoding)
        XCTAssertEqual(options.jxlDistance, 2.5)
        XCTAssertEqual(options.jxlEffort, 9)
        XCTAssertEqual(options.bitDepth, 16)
        XCTAssertFalse(options.jxlLossless)
        let lossless = EncodeOptions(format: .jxl, encoding: try XCTUnwrap(parse(head + "lossless: true }]\n").watches.first?.outputs.first).encoding)
        XCTAssertTrue(lossless.jxlLossless)
        let defaults = EncodeOptions(format: .jxl, encoding: try XCTUnwrap(parse(head + "}]\n").watches.first?.outputs.first).encoding)
        XCTAssertEqual(defaults.jxlDistance, 1, accuracy: 1e-9, "quality 90 is cjxl's distance 1")
        XCTAssertEqual(defaults.jxlEffort, 7, "cjxl's default effort")
        XCTAssertFalse(defaults.losslessJPEG)
    }

    func testOutOfRangeValuesAreRefused() {
        assertSingle(diagnostics(head + "effort: 0 }]\n"), at: (3, 51), "effort: expected an integer from 1 to 9")
        assertSingle(diagnostics(head + "distance: 16 }]\n"), at: (3, 53), "distance: expected a number from 0 to 15")
        assertSingle(diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.jpg', lossless_jpeg: true }]\n"),
                     at: (3, 58), "lossless_jpeg applies to jxl only")
    }

    /// lossless_jpeg keeps the JPEG's coefficients, so it takes no chain: refused at load, naming the filters.
    func testLosslessJPEGWithAChainIsRefused() throws {
        assertSingle(diagnostics(head + "lossless_jpeg: true, chain: [{ resize: { width: 100 } }, sepia] }]\n"), at: (3, 58),
                     "lossless_jpeg: true keeps the JPEG's coded data", "chain must be empty", "resize, sepia")
        let config = try parse(head + "lossless_jpeg: true }]\n")
        XCTAssertTrue(EncodeOptions(format: .jxl, encoding: try XCTUnwrap(config.watches.first?.outputs.first).encoding).losslessJPEG)
    }

    /// quality and distance both set JPEG XL's loss: the two together are refused (distance
    /// would otherwise win silently), at quality, in words naming both.
    func testQualityWithDistanceIsRefused() throws {
        assertSingle(diagnostics(head + "quality: 80, distance: 2 }]\n"), at: (3, 52),
                     "quality cannot be given with distance", "JPEG XL's loss")
        XCTAssertEqual(EncodeOptions(format: .jxl, encoding: try XCTUnwrap(parse(head + "quality: 80 }]\n").watches.first?.outputs.first).encoding).jxlDistance,
                       1.9, accuracy: 0.01, "quality alone still maps to a distance (cjxl: 0.1 + (100 - q) × 0.09)")
        XCTAssertNoThrow(try parse("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.jpg', quality: 80 }]\n"))
    }

    /// lossless_jpeg: true rebuilds the JPEG as it was, so the keys that would change its pixels,
    /// profile or metadata are refused, each where it is written and by name; with false they are read.
    func testLosslessJPEGRefusesWhatItCannotHonour() throws {
        let refused = diagnostics(head + "lossless_jpeg: true, metadata: strip, color: keep }]\n")
        XCTAssertEqual(refused.map(\.column), [74, 88], "\(refused)")
        XCTAssertTrue(refused.contains { $0.message.contains("metadata cannot be given with lossless_jpeg: true") }, "\(refused)")
        XCTAssertTrue(refused.contains { $0.message.contains("color cannot be given with lossless_jpeg: true") }, "\(refused)")
        for key in ["quality: 80", "distance: 1", "lossless: true", "bit_depth: 16", "gps: false", "intent: relative", "auto_orient: false"] {
            let name = String(key.prefix { $0 != ":" })
            assertSingle(diagnostics(head + "lossless_jpeg: true, \(key) }]\n"), at: (3, 64 + name.count + 2),
                         "\(name) cannot be given with lossless_jpeg: true", "byte for byte", "remove \(name)")
        }
        XCTAssertNoThrow(try parse(head + "lossless_jpeg: false, metadata: strip, quality: 80, effort: 9 }]\n"))
        XCTAssertNoThrow(try parse(head + "lossless_jpeg: true, effort: 9 }]\n"), "effort drives the transcoding")
    }
}
