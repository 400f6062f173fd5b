import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// A bare number is radians, so `rotate: {angle: 90}` turns by about 5157°: `check` and
/// `process` warn where it is written, and say how to write degrees.
final class BareAngleWarningTests: XCTestCase {
    func testCheckWarnsAtTheAngleAndStillPasses() throws {
        let s = Scratch()
        s.writeInPlace("angles.yaml", Array("""
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.jpg
                    chain:
                      - rotate: { angle: 90 }
                      - straighten: { angle: 2deg }
                      - hue: { angle: 1.5 }
                      - group: { chain: [ { hue: { angle: -180 } } ] }
            """.utf8))
        let check = try darkroom(["check", s.path("angles.yaml")])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("OK"), check.stdout)
        let warnings = check.stderr.split(separator: "\n").map(String.init)
        guard warnings.count == 2 else { return XCTFail("two warnings expected: \(check.stderr)") }
        XCTAssertTrue(warnings[0].hasPrefix(s.path("angles.yaml") + ":6:30: warning: "), check.stderr)
        XCTAssertTrue(warnings[0].hasSuffix("rotate.angle: 90 is read as radians (5156.6°); write 90deg"), check.stderr)
        XCTAssertTrue(warnings[1].contains(":9:47: warning: watches[0].outputs[0].chain[3] group.chain[0].hue.angle: "), check.stderr)
        XCTAssertTrue(warnings[1].hasSuffix("-180 is read as radians (-10313.2°); write -180deg"), check.stderr)
    }

    func testProcessWarnsAboutTheSameAngle() throws {
        let s = Scratch()
        s.writeInPlace("a.png", try ImageCodec.encode(Image(width: 8, height: 6, fill: Pixel(0.5, 0.5, 0.5, 1)), options: .init(format: .png)))
        let bare = try darkroom(["process", "--chain", "rotate angle=90", s.path("a.png"), "-o", s.path("o.png")])
        XCTAssertEqual(bare.status, 0, bare.stderr)
        XCTAssertTrue(bare.stderr.contains("warning: --chain rotate.angle: 90 is read as radians (5156.6°); write 90deg"), bare.stderr)
        let degrees = try darkroom(["process", "--chain", "rotate angle=90deg", s.path("a.png"), "-o", s.path("p.png")])
        XCTAssertEqual(degrees.status, 0, degrees.stderr)
        XCTAssertFalse(degrees.stderr.contains("warning"), degrees.stderr)
    }
}
