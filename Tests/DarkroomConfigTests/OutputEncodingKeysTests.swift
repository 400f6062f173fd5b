import XCTest
import DarkroomCodecs
@testable import DarkroomConfig

/// `chroma`, `bit_depth`, `compression`, `metadata` and `gps` on an output.
final class OutputEncodingKeysTests: XCTestCase {
    private func output(_ keys: String, extension ext: String = "jpg") throws -> OutputConfig {
        try parse("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.\(ext)'\(keys) }]\n").watches[0].outputs[0]
    }

    func testDefaults() throws {
        XCTAssertEqual(try output("").encoding, OutputEncoding(chroma: .auto, bitDepth: nil, compression: 6, metadata: .keep, gps: true))
    }

    func testEveryKeyIsRead() throws {
        XCTAssertEqual(try output(", chroma: 420, metadata: keep, gps: false").encoding,
                       OutputEncoding(chroma: .subsampled420, metadata: .keep, gps: false))
        XCTAssertEqual(try output(", chroma: 444, metadata: strip").encoding, OutputEncoding(chroma: .full444, metadata: .strip))
        XCTAssertEqual(try output(", bit_depth: 16, compression: 9, metadata: copyright", extension: "png").encoding,
                       OutputEncoding(bitDepth: 16, compression: 9, metadata: .copyright))
        XCTAssertEqual(try output(", bit_depth: 8, compression: 0", extension: "png").encoding,
                       OutputEncoding(bitDepth: 8, compression: 0))
    }

    func testValuesOutOfRangeAreRefusedWithTheirChoices() {
        let line = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png', "
        assertSingle(diagnostics(line + "bit_depth: 12 }]\n"), at: (3, 54), "bit_depth: expected one of 8, 16")
        assertSingle(diagnostics(line + "compression: 10 }]\n"), at: (3, 56), "compression: expected an integer from 0 to 9")
        assertSingle(diagnostics(line + "metadata: all }]\n"), at: (3, 53), "metadata: expected one of keep, strip, copyright")
    }

    func testKeysThatDoNotApplyToTheFormatAreRefused() {
        let jpeg = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.jpg', "
        assertSingle(diagnostics(jpeg + "bit_depth: 16 }]\n"), at: (3, 54), "bit_depth applies to png, tiff, avif and jxl only")
        assertSingle(diagnostics(jpeg + "compression: 9 }]\n"), at: (3, 56), "compression applies to png and tiff only")
        let png = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png', "
        assertSingle(diagnostics(png + "chroma: 444 }]\n"), at: (3, 51), "chroma applies to jpeg only")
    }

    func testGPSOnlyWithKeep() {
        let jpeg = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.jpg', "
        assertSingle(diagnostics(jpeg + "metadata: strip, gps: false }]\n"), at: (3, 65), "gps applies to metadata: keep only")
    }
}
