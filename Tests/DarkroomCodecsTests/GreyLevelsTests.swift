import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// A one-channel PNG keeps every one of its 256 levels: written back as one channel, each
/// level comes out as itself, and inverted each comes out as 255 minus itself (no level lost
/// to truncation on the way through floating point).
final class GreyLevelsTests: XCTestCase {
    /// A 256 × 2 8-bit grey PNG (colour type 0): row 0 runs 0…255, row 1 runs 255…0.
    static let ramp = GreyPNG.make(rows: [(0...255).map { UInt8($0) }, (0...255).reversed().map { UInt8($0) }])

    /// The 8-bit grey levels of a decoded image, row by row (failing if a pixel is not grey).
    func levels(_ png: [UInt8]) throws -> [[Int]] {
        let image = try ImageCodec.decode(png).image
        return (0..<image.size.height).map { y in
            (0..<image.size.width).map { x in
                let p = image[x, y]
                XCTAssertTrue(p.isGrey, "pixel \(x), \(y) is \(p)")
                return Int((p[0] * 255).rounded())
            }
        }
    }

    func testTheInputReadsAsTheLevelsItWasMadeOf() throws {
        XCTAssertEqual(try levels(Self.ramp), [Array(0...255), Array((0...255).reversed())])
    }

    func testEveryLevelSurvivesAGreyPNGOutput() throws {
        for chain in ["", "gamma power=1", "color_controls brightness=0.0001"] {
            let out = try render(Self.ramp, chain, options: .init(format: .png))
            XCTAssertEqual(pngHeader(out.bytes).colorType, 0, "\(chain): a grey input gives a grey PNG")
            let got = try levels(out.bytes)
            XCTAssertEqual(got[0], Array(0...255), "\"\(chain)\": levels changed")
            XCTAssertEqual(got[1], Array((0...255).reversed()), "\"\(chain)\": levels changed")
        }
    }

    func testInvertingAGreyPNGGivesTwoHundredFiftyFiveMinusEachLevel() throws {
        let out = try render(Self.ramp, "invert", options: .init(format: .png))
        XCTAssertEqual(pngHeader(out.bytes).colorType, 0)
        let got = try levels(out.bytes)
        XCTAssertEqual(got[0], (0...255).map { 255 - $0 })
        XCTAssertEqual(got[1], (0...255).reversed().map { 255 - $0 })
    }
}
