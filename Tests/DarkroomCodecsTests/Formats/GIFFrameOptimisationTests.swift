import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest

/// An animated GIF output's frames after the first, as `gifsicle --info` and libvips (`[n=-1]`)
/// read them back: cropped to what changed from the frame before, the rest shown through the
/// transparent index, every frame still the input's picture; a colour that appears only in a
/// later frame keeps its own palette entry. The frames are encoded beside the render (a thread
/// of their own): a full disk met by any frame is a clean `write_failed`.
final class GIFFrameOptimisationTests: XCTestCase {
    /// `gifsicle --info`'s images: each one's size and offset.
    static func images(_ path: String) throws -> [Rect] {
        let text = try FormatTools.run(FormatTools.gifsicle, ["--info", path])
        // "  + image #3 16x16 at 52,40" (no "at" for an image at 0,0)
        return text.split(separator: "\n").filter { $0.contains("+ image #") }.map { line in
            let words = line.split(separator: " ")
            let size = words[3].split(separator: "x").compactMap { Int($0) }
            var at = [0, 0]
            if let i = words.firstIndex(of: "at"), i + 1 < words.count { at = words[i + 1].split(separator: ",").compactMap { Int($0) } }
            return Rect(x: at[0], y: at[1], width: size[0], height: size[1])
        }
    }

    /// A white square moving over a fixed background (a gradient of 120 colours, which every
    /// GIF frame holds exactly): only the square's old and new places are written after the
    /// first frame, and every frame comes back as the input's.
    func testFramesAfterTheFirstHoldOnlyWhatChanged() throws {
        let folder = TemporaryFolder()
        var arguments = ["-delay", "10"]
        for k in 0..<6 {
            arguments += ["(", "-size", "160x120", "gradient:orange-navy", "-fill", "white",
                          "-draw", "rectangle \(20 + k * 16),40 \(35 + k * 16),55", ")"]
        }
        let input = folder.file("moving.gif")
        // +dither: ImageMagick would otherwise dither each frame's gradient its own way, and the
        // background would change from frame to frame in the input itself.
        try FormatTools.run(FormatTools.convert, arguments + ["+dither", "-loop", "0", input])
        let out = try AnimationTests.process(input, "", into: "out.gif", in: folder, options: .init(format: .gif))
        XCTAssertEqual(out.framesOut, 6)
        let images = try Self.images(folder.file("out.gif"))
        XCTAssertEqual(images.count, 6)
        XCTAssertEqual(images.first, Rect(x: 0, y: 0, width: 160, height: 120))
        for (k, image) in images.enumerated().dropFirst() {
            // The square's place before and now: 32×16, where the background stays put.
            XCTAssertTrue(image.width <= 40 && image.height <= 24, "frame \(k): \(image)")
            XCTAssertTrue(image.y >= 36 && image.y + image.height <= 60, "frame \(k): \(image)")
        }
        let ours = try GIFTests.vipsFrames(folder.file("out.gif"), count: 6, in: folder, name: "ours.png")
        let theirs = try GIFTests.vipsFrames(input, count: 6, in: folder, name: "input.png")
        for k in 0..<6 {
            XCTAssertGreaterThan(psnr(ours[k], theirs[k]), 30, "frame \(k): the picture composed from the cropped frames")
        }
    }

    /// Flat grey frames, then a blue and a red square: the first frame's palette (greys) cannot
    /// serve them, so the squares come out blue and red, not the nearest grey.
    func testAColourAppearingInALaterFrameKeepsItsColour() throws {
        let folder = TemporaryFolder()
        let input = folder.file("late.gif")
        try FormatTools.run(FormatTools.convert, [
            "-delay", "10", "-size", "80x60", "xc:gray50", "xc:gray50",
            "(", "-size", "80x60", "xc:gray50", "-fill", "blue", "-draw", "rectangle 10,10 29,29", ")",
            "(", "-size", "80x60", "xc:gray50", "-fill", "blue", "-draw", "rectangle 10,10 29,29",
            "-fill", "red", "-draw", "rectangle 50,30 69,49", ")", "-loop", "0", input,
        ])
        try AnimationTests.process(input, "", into: "out.gif", in: folder, options: .init(format: .gif))
        let frames = try GIFTests.vipsFrames(folder.file("out.gif"), count: 4, in: folder, name: "ours.png")
        func assertColor(_ pixel: Pixel, _ expected: [Float], _ what: String) {
            for c in 0..<3 { XCTAssertEqual(pixel[c], expected[c], accuracy: 0.02, "\(what), channel \(c)") }
        }
        assertColor(frames[1][40, 30], [0.5, 0.5, 0.5], "frame 1: grey")
        assertColor(frames[2][20, 20], [0, 0, 1], "frame 2: the blue square")
        assertColor(frames[2][60, 40], [0.5, 0.5, 0.5], "frame 2: grey where the red square will be")
        assertColor(frames[3][20, 20], [0, 0, 1], "frame 3: the blue square, unchanged")
        assertColor(frames[3][60, 40], [1, 0, 0], "frame 3: the red square")
    }

    /// /dev/full as an animated GIF's destination: every write fails with ENOSPC, as on a full
    /// disk. The failure, met on the thread a frame is encoded on, comes back as `write_failed`
    /// with the system's reason.
    func testAFullDiskWhileFramesAreEncodedIsAWriteFailure() throws {
        let folder = TemporaryFolder()
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try AnimationTests.animatedGIF(in: folder, frames: 12))))
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var options = EncodeOptions(format: .gif)
        options.destination = fd
        XCTAssertTrue(options.writesToDestination)
        XCTAssertThrowsError(try render(input, "resize width=80", options: options)) { error in
            let codecError = error as? CodecError
            XCTAssertEqual(codecError?.code, .writeFailed, "\(error)")
            XCTAssertTrue(codecError?.message.contains("No space left on device") == true, "\(error)")
        }
        // The same frames into memory: all twelve.
        options.destination = nil
        XCTAssertEqual(try render(input, "resize width=80", options: options).framesOut, 12)
    }
}
