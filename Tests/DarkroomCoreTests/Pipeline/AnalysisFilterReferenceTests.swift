@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// trim, normalise / auto_levels and equalize against libvips and ImageMagick.
final class AnalysisFilterReferenceTests: XCTestCase {
    private func run(_ text: String, _ image: Image) throws -> Image {
        try ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)).run(image, executor: smallTiles).image
    }

    /// What `vips find_trim <options>` prints for `image`: left, top, width and height.
    private func vipsFindTrim(_ image: Image, _ options: String) throws -> [Int] {
        let vips = try ExternalTool.vips.require()
        let folder = TemporaryFolder(prefix: "darkroom-trim")
        let dir = URL(fileURLWithPath: folder.path)
        try ImageFileFormat.ppm.encode(image).write(to: dir.appendingPathComponent("in.ppm"))
        try ToolProcess.run("/bin/sh", ["-c", "'\(vips)' find_trim in.ppm \(options) > trim.txt"], in: dir)
        return try String(contentsOf: dir.appendingPathComponent("trim.txt"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    /// `vips find_trim` prints left, top, width and height; `trim` keeps exactly that rectangle.
    func testTrimKeepsTheRectangleVipsFindTrimFinds() throws {
        for (block, threshold) in [(Rect(x: 7, y: 5, width: 21, height: 9), 10.0), (Rect(x: 0, y: 11, width: 30, height: 6), 40.0)] {
            // White with a textured block; faint marks (6/255 off white) outside it are border.
            let image = Image(width: 40, height: 30) { x, y in
                if block.contains(x, y) { return Pixel(0.2, Float(x) / 40, 0.5, 1) }
                return (x + y) % 7 == 0 ? Pixel(249 / 255, 249 / 255, 1, 1) : Pixel(1, 1, 1, 1)
            }
            XCTAssertEqual(try vipsFindTrim(image, "--threshold \(threshold)"), [block.x, block.y, block.width, block.height], "vips finds the block")
            let out = try run("trim threshold=\(threshold / 255)", image)
            XCTAssertEqual(out.size, block.size)
            XCTAssertEqual(out[0, 0], image[block.x, block.y])
        }
    }

    /// Without `background`, the border's colour is the top-left pixel's: on a coloured border,
    /// `trim` keeps what `vips find_trim --background <that colour>` finds, and ImageMagick's
    /// `-trim` (which starts from the corners) the same rectangle; an explicit background wins.
    func testTrimTakesTheBackgroundFromTheTopLeftPixel() throws {
        let block = Rect(x: 9, y: 4, width: 17, height: 15)
        let border = Pixel(100 / 255, 150 / 255, 200 / 255, 1)
        // A border with marks 8/255 off (under vips' threshold of 10), around a textured block.
        let image = Image(width: 36, height: 27) { x, y in
            if block.contains(x, y) { return Pixel(Float(x) / 36, 0.9, Float(y) / 27, 1) }
            return (x * y) % 5 == 1 ? Pixel(108 / 255, 150 / 255, 192 / 255, 1) : border
        }
        XCTAssertEqual(try vipsFindTrim(image, "--background '100 150 200'"), [block.x, block.y, block.width, block.height], "vips finds the block")
        let out = try run("trim", image)
        XCTAssertEqual(out.size, block.size)
        XCTAssertEqual(out[0, 0], image[block.x, block.y])
        let magick = try ExternalTool.convert.run(image, ["$IN", "-fuzz", "4%", "-trim", "+repage", "$OUT"])
        XCTAssertEqual(magick.size, block.size, "ImageMagick's -trim keeps the block too")
        // Told the border is white, nothing is border (every pixel is far from white).
        XCTAssertEqual(try run("trim background=white", image).size, image.size)
    }

    /// On a grey image, `normalise` and ImageMagick's `-contrast-stretch` take the same
    /// percentiles and stretch linearly between them.
    func testNormaliseStretchesLikeImageMagicksContrastStretch() throws {
        // Tones 60…180 with a few outliers at 10 and 250 (under 0.5 % each).
        let image = Image(width: 100, height: 40) { x, y in
            let v: Float = (x * 7 + y) % 400 == 0 ? 10 : (x * 3 + y) % 401 == 1 ? 250 : Float(60 + (x + 3 * y) % 121)
            return Pixel(v / 255, v / 255, v / 255, 1)
        }
        let ours = try run("normalise low=0.5 high=99.5", image)
        let magick = try ExternalTool.convert.run(image, ["$IN", "-contrast-stretch", "0.5%x0.5%", "$OUT"])
        let clamped = Image(width: ours.width, height: ours.height,
                            pixels: ours.pixels.map { pointwiseMin(pointwiseMax($0, .zero), Pixel(repeating: 1)) })
        XCTAssertLessThan(ImageComparison.maxDifference(clamped, magick, channels: 0..<3), 3.5 / 255)
        XCTAssertEqual(clamped[0, 0][0], 0, accuracy: 1 / 255, "60 is the low percentile: black")
    }

    /// ImageMagick 6.9's `-normalize` is a contrast stretch with 0.15 % black and 0.05 % white
    /// points (measured: outliers of 0.1 % are clipped below, kept above): `normalise low=0.15
    /// high=99.95` on the same grey image within 3.5/255.
    func testNormaliseIsImageMagicksNormalizeAtItsPercentiles() throws {
        // Tones 60…180, 20 pixels (0.1 %) at 5 and 20 at 250.
        let image = Image(width: 200, height: 100) { x, y in
            let i = y * 200 + x
            let v = Float(i < 20 ? 5 : i < 40 ? 250 : 60 + (x * 5 + y * 3) % 121) / 255
            return Pixel(v, v, v, 1)
        }
        let ours = try run("normalise low=0.15 high=99.95", image)
        let magick = try ExternalTool.convert.run(image, ["$IN", "-normalize", "$OUT"])
        let clamped = Image(width: ours.width, height: ours.height,
                            pixels: ours.pixels.map { pointwiseMin(pointwiseMax($0, .zero), Pixel(repeating: 1)) })
        XCTAssertLessThan(ImageComparison.maxDifference(clamped, magick, channels: 0..<3), 3.5 / 255)
        XCTAssertEqual(clamped[100, 50][0], magick[100, 50][0], accuracy: 3.5 / 255)
        XCTAssertEqual(clamped[0, 0][0], 0, "the low outliers are clipped")
    }

    /// `auto_levels` stretches each channel on its own: a cast (R only in 0.3…0.7) is removed.
    func testAutoLevelsStretchesEachChannel() throws {
        let image = Image(width: 64, height: 8) { x, _ in
            let t = Float(x) / 63
            return Pixel(0.3 + 0.4 * t, t, 0.5, 1)
        }
        let out = try run("auto_levels low=0 high=100", image)
        XCTAssertEqual(out[0, 0][0], 0, accuracy: 1 / 255)
        XCTAssertEqual(out[63, 0][0], 1, accuracy: 1 / 255)
        XCTAssertEqual(out[63, 0][2], 0.5, accuracy: 1e-6, "a flat channel is left alone")
    }

    /// `equalize` is `vips hist_equal`: each channel through its own cumulative histogram.
    func testEqualizeIsVipsHistEqual() throws {
        let image = Image(width: 50, height: 30) { x, y in
            let r = Float((x * x + y) % 90) / 255, g = Float(100 + (x + 2 * y) % 60) / 255
            return Pixel(r, g, Float((x * y) % 256) / 255, 1)
        }
        let ours = try run("equalize", image)
        let vips = try ExternalTool.vips.run(image, ["hist_equal", "$IN", "$OUT"])
        XCTAssertLessThan(ImageComparison.maxDifference(ours, vips, channels: 0..<3), 1.01 / 255)
    }
}
