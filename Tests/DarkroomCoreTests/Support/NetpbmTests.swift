@testable import DarkroomCore
import Foundation
import XCTest

/// The Netpbm test helper must agree with ImageMagick, or every comparison built on it is moot.
final class NetpbmTests: XCTestCase {
    /// Colours on the 8-bit grid survive our PAM → ImageMagick → PAM (and → PPM, alpha dropped
    /// over black) exactly, to float rounding.
    func testRoundTripsThroughImageMagick() throws {
        let input = Image(width: 5, height: 3) { x, y in
            Pixel(Float(x * 50) / 255, Float(y * 100) / 255, 1, Float(255 - 40 * x) / 255).premultiplied
        }
        let pam = try ExternalTool.convert.run(input, inputFormat: .pam, outputFormat: .pam, ["$IN", "$OUT"])
        XCTAssertLessThan(ImageComparison.maxDifference(pam, input), 1e-6)
        let ppm = try ExternalTool.convert.run(input, inputFormat: .ppm, outputFormat: .ppm, ["$IN", "$OUT"])
        XCTAssertEqual(ppm.size, input.size)
        XCTAssertEqual(ppm[4, 2][3], 1)
        XCTAssertEqual(ppm[4, 2][0], (input[4, 2][0] * 255).rounded() / 255, accuracy: 1e-6)
    }

    /// Float samples, off the 8-bit grid, survive our PFM → vips → PFM unchanged, and rows keep
    /// their order (the test image differs top to bottom).
    func testPFMRoundTripsThroughVips() throws {
        let input = TestImage.texture(width: 13, height: 9)
        let copy = try ExternalTool.vips.run(input, inputFormat: .pfm, outputFormat: .pfm, ["copy", "$IN", "$OUT"])
        XCTAssertEqual(copy, input)
    }

    func testRejectsOtherFormats() {
        XCTAssertThrowsError(try Netpbm.read(Data("P3\n1 1\n255\n0 0 0\n".utf8)))
        XCTAssertThrowsError(try Netpbm.read(Data("P6\n4 4\n255\n".utf8)))
        XCTAssertThrowsError(try Netpbm.read(Data("PF\n1 1\n1.0\n".utf8) + Data(count: 12)), "big-endian PFM")
        XCTAssertThrowsError(try Netpbm.read(Data("PF\n2 2\n-1.0\n".utf8) + Data(count: 12)), "short PFM body")
    }
}
