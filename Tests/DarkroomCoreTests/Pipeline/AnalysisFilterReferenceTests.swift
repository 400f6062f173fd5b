import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// trim, normalise / auto_levels and equalize against libvips and ImageMagick.
final class AnalysisFilterReferenceTests: XCTestCase {
    private func run(_ text: String, _ image: Image) throws -> Image {
        try ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)).run(image, executor: smallTiles).image
    }

    /// `vips find_trim` prints left, top, width and height; `trim` keeps exactly that rectangle.
    func testTrimKeepsTheRectangleVipsFindTrimFinds() throws {
        let vips = try ExternalTool.vips.require()
        for (block, threshold) in [(Rect(x: 7, y: 5, width: 21, height: 9), 10.0), (Rect(x: 0, y: 11, width: 30, height: 6), 40.0)] {
            // White with a textured block; faint marks (6/255 off white) outside it are border.
            let image = Image(width: 40, height: 30) { x, y in
                if block.contains(x, y) { return Pixel(0.2, Float(x) / 40, 0.5, 1) }
                return (x + y) % 7 == 0 ? Pixel(249 / 255, 249 / 255, 1, 1) : Pixel(1, 1, 1, 1)
            }
            let folder = TemporaryFolder(prefix: "darkroom-trim")
            let dir = URL(fileURLWithPath: folder.path)
            try ImageFileFormat.ppm.encode(image).write(to: dir.appendingPathComponent("in.ppm"))
            try ToolProcess.run("/bin/sh", ["-c", "'\(vips)' find_trim in.ppm --threshold \(threshold) > trim.txt"], in: dir)
            let numbers = try String(contentsOf: dir.appendingPathComponent("trim.txt"), encoding: .utf8)
                .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            XCTAssertEqual(numbers, [block.x, block.y, block.width, block.height], "vips finds the block")
            let out = try run("trim threshold=\(threshold / 255)", image)
            XCTAssertEqual(out.size, block.size)
            XCTAssertEqual(out[0, 0], image[block.x, block.y])
        }
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
