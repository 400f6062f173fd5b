import Foundation
import XCTest

/// A missing reference tool must fail under CI and may only skip elsewhere, or the comparisons
/// with vips and ImageMagick could silently stop running.
final class ExternalToolTests: XCTestCase {
    private let missing = ExternalTool(name: "darkroom-no-such-tool", package: "libvips-tools")

    func testMissingToolFailsUnderCI() {
        for ci in ["true", "1"] {
            XCTAssertThrowsError(try missing.require(environment: ["PATH": "/usr/bin:/bin", "CI": ci])) { error in
                XCTAssertFalse(error is XCTSkip, "a missing tool must not skip under CI")
                XCTAssertTrue("\(error)".contains("install libvips-tools (scripts/install-deps.sh)"), "\(error)")
            }
        }
    }

    func testMissingToolSkipsWithoutCI() {
        for environment in [["PATH": "/usr/bin:/bin"], ["PATH": "/usr/bin:/bin", "CI": ""]] {
            XCTAssertThrowsError(try missing.require(environment: environment)) { error in
                XCTAssertTrue(error is XCTSkip, "\(error)")
            }
        }
    }

    func testToolIsFoundOnThePath() throws {
        let sh = ExternalTool(name: "sh", package: "dash")
        XCTAssertEqual(sh.locate(environment: ["PATH": "/darkroom-nowhere:/bin"]), "/bin/sh")
        XCTAssertNil(sh.locate(environment: ["PATH": "/darkroom-nowhere"]))
    }
}
