import DarkroomCodecs
@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// The per-output keys of issue 7's colour part: `auto_orient`, `color`, `intent`.
final class OutputColorKeysTests: XCTestCase {
    func testTheKeysAreReadWithTheirDefaults() throws {
        let config = try parse("""
            watches:
              - path: ./in
                outputs:
                  - { path: "./out/a-{stem}.jpg", auto_orient: false, color: keep, intent: relative }
                  - { path: "./out/b-{stem}.png" }
            """)
        let outputs = config.watches[0].outputs
        XCTAssertEqual(outputs[0].color, ColorOptions(autoOrient: false, target: .keep, intent: .relative))
        XCTAssertEqual(outputs[1].color, ColorOptions(autoOrient: true, target: .srgb, intent: .perceptual),
                       "upright, sRGB, perceptual unless told otherwise")
    }

    func testBadValuesPointAtTheValue() {
        assertSingle(diagnostics("""
            watches:
              - path: ./in
                outputs: [ { path: "./out/x-{stem}.png", color: adobe } ]
            """), at: (3, 53), "color", "expected one of srgb, keep")
        assertSingle(diagnostics("""
            watches:
              - path: ./in
                outputs: [ { path: "./out/x-{stem}.png", intent: saturation } ]
            """), at: (3, 54), "intent", "expected one of perceptual, relative")
        assertSingle(diagnostics("""
            watches:
              - path: ./in
                outputs: [ { path: "./out/x-{stem}.png", auto_orient: sometimes } ]
            """), at: (3, 59), "auto_orient", "expected true or false")
    }

    func testAMisspelledKeyIsNamed() {
        let found = diagnostics("""
            watches:
              - path: ./in
                outputs: [ { path: "./out/x-{stem}.png", autorotate: false } ]
            """)
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.message.contains("auto_orient") == true, "\(found)")
    }
}
