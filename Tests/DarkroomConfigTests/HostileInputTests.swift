@testable import DarkroomCore
import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomConfig

/// Configs written to break the loader: absurd numbers, huge or deep text, bytes that are not
/// UTF-8. Each must be refused with a diagnostic (never a crash), pointing at the value.
final class HostileInputTests: XCTestCase {
    let watch = "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png' }]\n"

    func testOutOfRangeNumbersAreDiagnosed() {
        assertSingle(diagnostics("workers: -3\n" + watch), at: (1, 10), "from 1 to 256")
        assertSingle(diagnostics("workers: 1e400\n" + watch), at: (1, 10), "from 1 to 256")
        assertSingle(diagnostics("workers: 99999999999999999999999\n" + watch), at: (1, 10), "from 1 to 256")
        assertSingle(diagnostics("limits: { max_file_bytes: 1e400 }\n" + watch), at: (1, 27), "expected a size")
    }

    func testMaxPixelsHasACeilingThatKeepsPixelMathsInRange() throws {
        assertSingle(diagnostics("limits: { max_pixels: 9223372036854775807 }\n" + watch), at: (1, 23),
                     "from 1 to 10000000000")
        let config = try parse("limits: { max_pixels: 10000000000 }\n" + watch)
        XCTAssertEqual(config.limits.maxPixels, Limits.maximumPixelLimit)
        XCTAssertEqual(Limits.maximumPixelLimit.multipliedReportingOverflow(by: 16).overflow, false)
    }

    func testAbsurdFilterParametersAreRefusedAtLoad() {
        let chain = { (step: String) in
            "watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png', chain: [\(step)] }]\n"
        }
        for step in ["{ gaussian_blur: { radius: 1e9 } }", "{ gaussian_blur: { radius: 1e400 } }",
                     "{ drop_shadow: { blur: 1e6 } }", "{ resize: { width: 65536 } }", "{ resize: { scale: -1 } }",
                     "{ crop: { width: 0 } }", "{ transform: { scale: [0, 0] } }", "{ convolve: { kernel: [1, 2] } }",
                     "{ convolve: { kernel: [.nan] } }"] {
            let diags = diagnostics(chain(step))
            XCTAssertEqual(diags.count, 1, "\(step): \(diags)")
            XCTAssertEqual(diags.first?.line, 3, step)
        }
    }

    func testVeryLongScalarsAreDiagnosed() {
        let long = String(repeating: "x", count: 1_000_000)
        let diags = diagnostics("workers: \(long)\n" + watch)
        XCTAssertEqual(diags.count, 1)
        XCTAssertEqual(diags.first?.line, 1)
        let unknownFilter = diagnostics("watches:\n  - path: ./in\n    outputs: [{ path: './out/{stem}.png', chain: [\(long)] }]\n")
        XCTAssertEqual(unknownFilter.count, 1)
    }

    func testDeepNestingIsRefused() {
        let depth = 100_000
        let deep = "workers: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n" + watch
        let diags = diagnostics(deep)
        XCTAssertEqual(diags.count, 1)
        XCTAssertTrue(diags.first?.message.contains("nested") == true, "\(diags)")
    }

    func testNonUTF8FileIsRefused() throws {
        let folder = TemporaryFolder(prefix: "darkroom-hostile")
        defer { withExtendedLifetime(folder) {} }
        let file = URL(fileURLWithPath: folder.file("config.yaml"))
        try Data([0x77, 0x6F, 0x72, 0x6B, 0x65, 0x72, 0x73, 0x3A, 0x20, 0xFF, 0xFE, 0xC3, 0x28, 0x0A]).write(to: file)
        XCTAssertThrowsError(try ConfigLoader.load(path: file.path)) { error in
            let message = (error as? ConfigError)?.diagnostics.first?.message ?? ""
            XCTAssertTrue(message.contains("UTF-8"), message)
        }
    }
}
