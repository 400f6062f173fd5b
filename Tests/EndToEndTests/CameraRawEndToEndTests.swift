import DarkroomCodecs
import DarkroomTestSupport
import Foundation
import XCTest

/// A photographer's job through the real binary: a DNG (made by scripts/make-dng.py with
/// tifffile) in, JPEGs out, with the report saying how it was decoded.
final class CameraRawEndToEndTests: XCTestCase {
    private func makeDNG(_ s: Scratch, _ name: String, size: String) throws {
        s.makeFolder("in")
        try DNGFile.make(["--synthetic", size, s.path("in/\(name)"), "--make", "darkroom", "--model", "End To End",
                          "--gains", "0.6,1,0.8"])
    }

    /// A thumbnail takes libraw's half-size decode and the report says so (shrink_on_load 2); a
    /// large output develops the whole sensor; the camera's make and model reach the JPEG.
    func testADNGBecomesJPEGsAndTheReportTellsTheHalfSizePath() throws {
        let s = Scratch()
        try makeDNG(s, "photo.dng", size: "640x480")
        for (width, shrink) in [(160, 2), (600, 1)] {
            let out = "out\(width).jpg"
            let result = try darkroom(["process", "--chain", "resize width=\(width)", s.path("in/photo.dng"), "-o", s.path(out),
                                       "--reports", s.path("reports\(width)")])
            XCTAssertEqual(result.status, 0, result.stderr)
            let report = try XCTUnwrap(s.report("reports\(width)/photo.dng.json"))
            let input = try XCTUnwrap(report["input"] as? [String: Any])
            XCTAssertEqual(input["format"] as? String, "raw")
            XCTAssertEqual(input["width"] as? Int, 640)
            let output = try XCTUnwrap((report["outputs"] as? [[String: Any]])?.first)
            XCTAssertEqual(output["shrink_on_load"] as? Int, shrink, "width \(width)")
            let info = try ImageCodec.readInfo(try XCTUnwrap(s.read(out)))
            XCTAssertEqual([info.width, info.height], [width, width * 3 / 4])
            let tags = try ReferenceTool.output(ReferenceTool.exiftool, ["-s3", "-Make", "-Model", s.path(out)])
            XCTAssertEqual(tags.split(separator: "\n").map(String.init), ["darkroom", "End To End"])
        }
    }

    func testATruncatedDNGFailsWithItsCode() throws {
        let s = Scratch()
        try makeDNG(s, "whole.dng", size: "320x240")
        let whole = try XCTUnwrap(s.read("in/whole.dng"))
        s.writeInPlace("in/cut.dng", Array(whole.prefix(whole.count / 3)))
        let result = try darkroom(["process", "--chain", "resize width=100", s.path("in/cut.dng"), "-o", s.path("cut.jpg"),
                                   "--reports", s.path("reports")])
        XCTAssertNotEqual(result.status, 0)
        let report = try XCTUnwrap(s.report("reports/cut.dng.json"))
        XCTAssertEqual(report["status"] as? String, "failed")
        XCTAssertEqual((report["error"] as? [String: Any])?["code"] as? String, "truncated")
        XCTAssertNil(s.read("cut.jpg"), "nothing half-written")
    }
}
