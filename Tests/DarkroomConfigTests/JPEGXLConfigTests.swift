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
}
