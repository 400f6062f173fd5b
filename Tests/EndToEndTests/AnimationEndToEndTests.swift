import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// An animated GIF through `darkroom process`: every frame out, the report saying how many went
/// in and out, and memory bounded by one frame, not the animation.
final class AnimationEndToEndTests: XCTestCase {
    /// 300 frames of 320×240 (92 MB as RGBA) resized to 160 px: the process's peak resident
    /// memory is within a tenth of the frames' worth of the same job on the first three frames
    /// (so memory does not grow with the frame count), and `gifsicle --info` and the report
    /// count 300 frames in and out.
    func testThreeHundredFrameGIFResizedWithBoundedMemory() throws {
        let s = Scratch()
        let three = s.path("three.gif")
        _ = try ReferenceTool.output(ReferenceTool.convert, [
            "-delay", "4", "(", "-size", "320x240", "gradient:orange-navy", ")",
            "(", "-size", "320x240", "gradient:red-blue", "-fill", "white", "-draw", "circle 150,100 150,50", ")",
            "(", "-size", "320x240", "radial-gradient:yellow-green", ")", "-loop", "0", three,
        ])
        let input = s.path("many.gif")
        _ = try ReferenceTool.output(("gifsicle", "gifsicle"), ["--merge"] + Array(repeating: three, count: 100) + ["-o", input])
        let (few, fewKiB) = try darkroomPeakRSS(["process", "--chain", "resize width=160", three, "-o", s.path("few.gif")])
        XCTAssertEqual(few.status, 0, few.stderr)
        // Memory is the point here, not time: a loaded machine's debug build may pass the default 120 s.
        let (result, peakKiB) = try darkroomPeakRSS(["process", "--chain", "resize width=160", input, "-o", s.path("out.gif"),
                                                     "--reports", s.path("reports"), "--max-seconds", "3600"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("300 frames"), result.stdout)
        let info = try ReferenceTool.output(("gifsicle", "gifsicle"), ["--info", s.path("out.gif")])
        XCTAssertTrue(info.hasPrefix("* \(s.path("out.gif")) 300 images"), info)
        XCTAssertTrue(info.contains("logical screen 160x120"), info)
        let report = try XCTUnwrap(s.report("reports/many.gif.json"))
        XCTAssertEqual((report["input"] as? [String: Any])?["pages"] as? Int, 300)
        XCTAssertEqual((report["input"] as? [String: Any])?["format"] as? String, "gif")
        XCTAssertEqual((report["outputs"] as? [[String: Any]])?.first?["frames"] as? Int, 300)
        let framesWorthKiB = 300 * 320 * 240 * 4 / 1024
        XCTAssertGreaterThan(fewKiB, 0)
        XCTAssertLessThan(peakKiB - fewKiB, framesWorthKiB / 10,
                          "300 frames: \(peakKiB) KiB, 3 frames: \(fewKiB) KiB; 300 frames are \(framesWorthKiB) KiB")
    }

    /// `frames: first` on the command line's config side: an animated GIF into JPEG is its first
    /// frame, and the report says 1 frame out of 3.
    func testAnimationIntoJPEGIsItsFirstFrame() throws {
        let s = Scratch()
        let input = s.path("anim.gif")
        _ = try ReferenceTool.output(ReferenceTool.convert, [
            "-delay", "10", "-size", "60x40", "xc:red", "xc:lime", "xc:blue", "-loop", "0", input,
        ])
        let result = try darkroom(["process", "--chain", "resize width=30", input, "-o", s.path("out.jpg"), "--reports", s.path("reports")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (image, info) = try ImageCodec.decode(try XCTUnwrap(s.read("out.jpg")))
        XCTAssertEqual(Size(width: info.width, height: info.height), Size(width: 30, height: 20))
        XCTAssertGreaterThan(image[15, 10][0], 0.9, "red: the first frame")
        let report = try XCTUnwrap(s.report("reports/anim.gif.json"))
        XCTAssertEqual((report["input"] as? [String: Any])?["pages"] as? Int, 3)
        XCTAssertEqual((report["outputs"] as? [[String: Any]])?.first?["frames"] as? Int, 1)
    }
}
