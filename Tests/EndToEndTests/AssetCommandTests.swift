import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// A file named in a chain, through the real binary: `check` finds a missing one at its line and
/// column, `process` draws it and reports its SHA-256.
final class AssetCommandTests: XCTestCase {
    func testCheckFindsAMissingImageAndProcessDrawsAPresentOne() throws {
        let s = Scratch()
        s.writeInPlace("bad.yaml", Array("""
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                    chain:
                      - overlay_image: { image: logo.png, opacity: 0.5 }
            """.utf8))
        let bad = try darkroom(["check", s.path("bad.yaml")])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains(s.path("bad.yaml") + ":6:37: ") && bad.stderr.contains("\(s.path("logo.png")): no such file"),
                      bad.stderr)

        let logo = try ImageCodec.encode(Image(width: 4, height: 3) { _, _ in Pixel(1, 0, 0, 1) }, options: EncodeOptions(format: .png))
        s.writeInPlace("logo.png", logo)
        XCTAssertEqual(try darkroom(["check", s.path("bad.yaml")]).status, 0, "the same config once the file is there")

        s.writeInPlace("in.png", try ImageCodec.encode(Image(width: 10, height: 8) { _, _ in Pixel(0, 0, 1, 1) },
                                                        options: EncodeOptions(format: .png)))
        let run = try darkroom(["process", "--chain", "overlay_image image=\(s.path("logo.png")) at=[2,1]",
                                s.path("in.png"), "-o", s.path("out.png"), "--reports", s.path("reports")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let out = try ImageCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: s.path("out.png"))))).image
        XCTAssertEqual(out[3, 2], Pixel(1, 0, 0, 1), "the logo is drawn at its position")
        XCTAssertEqual(out[0, 0], Pixel(0, 0, 1, 1))
        let report = try String(contentsOfFile: s.path("reports/in.png.json"), encoding: .utf8)
        XCTAssertTrue(report.contains(SHA256Hex.of(logo)), report)
    }
}
