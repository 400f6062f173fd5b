import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// Animated GIF and WebP through the chain, frame by frame, into animated GIF and WebP: frame
/// count, delays and loop count as `gifsicle --info` and `webpmux -info` read them, and every
/// frame's pixels after a resize within a stated PSNR of libvips (`vips thumbnail` of the input
/// read with `[n=-1]`), read back by libvips.
final class AnimationTests: XCTestCase {
    /// Twelve 160×120 frames (a gradient rolling sideways, a circle moving across), delays 50…160 ms.
    static func animatedGIF(in folder: TemporaryFolder, frames: Int = 12, loop: Int = 2) throws -> String {
        let path = folder.file("anim.gif")
        var arguments: [String] = []
        for k in 0..<frames {
            arguments += ["-delay", "\(5 + k)", "(", "-size", "160x120", "gradient:orange-navy", "-roll", "+\(k * 13)+0",
                          "-fill", "white", "-draw", "circle \(20 + k * 10),60 \(20 + k * 10),45", ")"]
        }
        try FormatTools.run(FormatTools.convert, arguments + ["-loop", "\(loop)", path])
        return path
    }

    /// Four 160×120 frames as an animated WebP (lossless), durations 80, 120, 80, 200 ms, played 4 times.
    static func animatedWebP(in folder: TemporaryFolder) throws -> String {
        var arguments = ["-loop", "4", "-lossless"]
        for (k, duration) in [80, 120, 80, 200].enumerated() {
            let png = folder.file("w\(k).png")
            try FormatTools.run(FormatTools.convert, ["-size", "160x120", "gradient:green-white", "-roll", "+\(k * 30)+0",
                                                      "-fill", "red", "-draw", "rectangle \(10 + k * 20),20 \(50 + k * 20),80", png])
            arguments += ["-d", "\(duration)", png]
        }
        let path = folder.file("anim.webp")
        try FormatTools.run(FormatTools.img2webp, arguments + ["-o", path])
        return path
    }

    /// `gifsicle --info`'s delays (in seconds, as printed) and its loop line.
    static func gifsicleInfo(_ path: String) throws -> (frames: Int, delays: [String], loop: String?) {
        let text = try FormatTools.run(FormatTools.gifsicle, ["--info", path])
        let frames = text.split(separator: "\n").filter { $0.contains("+ image #") }.count
        let delays = text.split(separator: " ").filter { $0.hasSuffix("s\n") || $0.hasSuffix("s") }
            .filter { $0.first?.isNumber == true }.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        let loop = text.split(separator: "\n").first { $0.contains("loop") }.map { String($0).trimmingCharacters(in: .whitespaces) }
        return (frames, delays, loop)
    }

    /// `webpmux -info`'s frame count, durations and loop count.
    static func webpmuxInfo(_ path: String) throws -> (frames: Int, durations: [Int], loop: Int) {
        let text = try FormatTools.run(FormatTools.webpmux, ["-info", path])
        let lines = text.split(separator: "\n")
        let frames = Int(lines.first { $0.hasPrefix("Number of frames:") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        let loop = Int(lines.first { $0.contains("Loop Count") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        // Rows "  1:   100    75    no        0        0       70  ...": the seventh column is the duration.
        let durations = lines.filter { $0.trimmingCharacters(in: .whitespaces).first?.isNumber == true && $0.contains(":") }
            .compactMap { line in Int(line.split(separator: " ", omittingEmptySubsequences: true)[6]) }
        return (frames, durations, loop)
    }

    /// `chain` rendered on the file at `path` into `format`, written next to it as `name`.
    @discardableResult
    static func process(_ path: String, _ chain: String, into name: String, in folder: TemporaryFolder,
                        options: EncodeOptions) throws -> ChainRenderer.Output {
        let out = try render([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), chain, options: options)
        _ = try ReferenceTool.file(out.bytes, named: name, in: folder)
        return out
    }

    /// The lowest PSNR over the frames of `output` (read by vips) against vips' thumbnail of
    /// `input` at `width` (the input's frames read with `[n=-1]`, unless `every` says otherwise:
    /// a `.v` file holds its frames already).
    static func worstPSNR(_ output: String, against input: String, width: Int, frames: Int, in folder: TemporaryFolder,
                          every: String = "[n=-1]") throws -> Double {
        try FormatTools.run(FormatTools.vips, ["thumbnail", input + every, folder.file("reference.png"), "\(width)"])
        let strip = try FormatTools.decode(folder.file("reference.png")).image
        let height = strip.height / frames
        let ours = try GIFTests.vipsFrames(output, count: frames, in: folder, name: "ours.png")
        return (0..<frames).map { k in
            psnr(ours[k], Image(width: strip.width, height: height) { x, y in strip[x, k * height + y] })
        }.min() ?? 0
    }

    func testAnimatedGIFResizedIntoGIFAndWebP() throws {
        let folder = TemporaryFolder()
        let input = try Self.animatedGIF(in: folder)
        let original = try Self.gifsicleInfo(input)
        XCTAssertEqual(original.frames, 12)

        let gif = try Self.process(input, "resize width=80", into: "out.gif", in: folder, options: .init(format: .gif))
        XCTAssertEqual(gif.size, Size(width: 80, height: 60))
        XCTAssertEqual(gif.framesIn, 12)
        XCTAssertEqual(gif.framesOut, 12)
        let written = try Self.gifsicleInfo(folder.file("out.gif"))
        XCTAssertEqual(written.frames, 12)
        XCTAssertEqual(written.delays, original.delays)
        XCTAssertEqual(written.loop, original.loop)
        // A palette of 256 per frame, dithered: within 30 dB of libvips' resize of each frame.
        XCTAssertGreaterThan(try Self.worstPSNR(folder.file("out.gif"), against: input, width: 80, frames: 12, in: folder), 30)

        var lossless = EncodeOptions(format: .webp)
        lossless.lossless = true
        let webp = try Self.process(input, "resize width=80", into: "out.webp", in: folder, options: lossless)
        XCTAssertEqual(webp.framesOut, 12)
        let info = try Self.webpmuxInfo(folder.file("out.webp"))
        XCTAssertEqual(info.frames, 12)
        XCTAssertEqual(info.durations, (0..<12).map { (5 + $0) * 10 })
        // NETSCAPE2.0 counts repetitions after the first play; WebP counts plays.
        let repeats = try XCTUnwrap(original.loop.flatMap { Int($0.split(separator: " ").last ?? "") })
        XCTAssertEqual(info.loop, repeats + 1)
        // Lossless: what is left is the resize, within 40 dB of libvips'.
        XCTAssertGreaterThan(try Self.worstPSNR(folder.file("out.webp"), against: input, width: 80, frames: 12, in: folder), 40)
    }

    func testAnimatedWebPResizedIntoWebPAndGIF() throws {
        let folder = TemporaryFolder()
        let input = try Self.animatedWebP(in: folder)
        var lossless = EncodeOptions(format: .webp)
        lossless.lossless = true
        let webp = try Self.process(input, "resize width=100", into: "out.webp", in: folder, options: lossless)
        XCTAssertEqual(webp.size, Size(width: 100, height: 75))
        XCTAssertEqual(webp.framesOut, 4)
        let info = try Self.webpmuxInfo(folder.file("out.webp"))
        XCTAssertEqual(info.frames, 4)
        XCTAssertEqual(info.durations, [80, 120, 80, 200])
        XCTAssertEqual(info.loop, 4)
        XCTAssertGreaterThan(try Self.worstPSNR(folder.file("out.webp"), against: input, width: 100, frames: 4, in: folder), 40)
        // Lossy (quality 90, chroma at half resolution): within 28 dB at the red rectangle's edges.
        try Self.process(input, "resize width=100", into: "lossy.webp", in: folder, options: .init(format: .webp))
        XCTAssertEqual(try Self.webpmuxInfo(folder.file("lossy.webp")).durations, [80, 120, 80, 200])
        XCTAssertGreaterThan(try Self.worstPSNR(folder.file("lossy.webp"), against: input, width: 100, frames: 4, in: folder), 28)

        try Self.process(input, "resize width=100", into: "out.gif", in: folder, options: .init(format: .gif))
        let gif = try Self.gifsicleInfo(folder.file("out.gif"))
        XCTAssertEqual(gif.frames, 4)
        XCTAssertEqual(gif.delays, ["0.08s", "0.12s", "0.08s", "0.20s"])
        XCTAssertEqual(gif.loop, "loop count 3", "four plays: the first and three repetitions")
        XCTAssertGreaterThan(try Self.worstPSNR(folder.file("out.gif"), against: input, width: 100, frames: 4, in: folder), 30)
    }

    /// An animated WebP with an ICC profile (ProPhoto, set with `webpmux -set icc`): every frame
    /// is converted to sRGB, as libvips converts the frames it reads with `[n=-1]` and as the
    /// still path converts the first frame; not passed through as if it were sRGB.
    func testAnimatedWebPWithAnICCProfileIsConvertedToSRGB() throws {
        let folder = TemporaryFolder()
        let plain = try Self.animatedWebP(in: folder)
        let tagged = folder.file("tagged.webp")
        try FormatTools.run(FormatTools.webpmux, ["-set", "icc", Fixtures.path("prophoto.icc"), plain, "-o", tagged])
        var lossless = EncodeOptions(format: .webp)
        lossless.lossless = true
        let out = try Self.process(tagged, "resize width=100", into: "out.webp", in: folder, options: lossless)
        XCTAssertEqual(out.framesOut, 4)
        XCTAssertNotNil(out.colorConvertedFrom, "the report names the profile converted from")
        // libvips: every frame converted from the embedded profile to sRGB (icc_transform), then
        // resized (its thumbnail alone keeps the profile, and converting after the resize mixes
        // ProPhoto's out-of-gamut red at the edges differently).
        let converted = folder.file("converted.v")
        try FormatTools.run(FormatTools.vips, ["icc_transform", tagged + "[n=-1]", converted, "srgb"])
        XCTAssertGreaterThan(try Self.worstPSNR(folder.file("out.webp"), against: converted, width: 100, frames: 4, in: folder, every: ""), 38,
                             "each frame converted as libvips converts it")
        XCTAssertLessThan(try Self.worstPSNR(folder.file("out.webp"), against: plain, width: 100, frames: 4, in: folder), 30,
                          "the ProPhoto samples are not taken as sRGB")
        var first = EncodeOptions(format: .png)
        first.frames = .first
        let still = try Self.process(tagged, "resize width=100", into: "still.png", in: folder, options: first)
        let ours = try GIFTests.vipsFrames(folder.file("out.webp"), count: 4, in: folder, name: "ours.png")[0]
        XCTAssertLessThanOrEqual(maxDifference(ours, try ImageCodec.decode(still.bytes).image), 1,
                                 "frame 1 as the still path converts it")
    }

    /// `frames: first`, and formats that cannot animate, take the first frame as a still image.
    func testFirstFrameOnlyWhereAskedOrTheFormatCannotAnimate() throws {
        let folder = TemporaryFolder()
        let input = try Self.animatedGIF(in: folder, frames: 3)
        var options = EncodeOptions(format: .gif)
        options.frames = .first
        let still = try Self.process(input, "resize width=80", into: "still.gif", in: folder, options: options)
        XCTAssertEqual(still.framesOut, 1)
        XCTAssertEqual(try Self.gifsicleInfo(folder.file("still.gif")).frames, 1)
        let png = try Self.process(input, "resize width=80", into: "still.png", in: folder, options: .init(format: .png))
        XCTAssertEqual(png.framesIn, 3)
        XCTAssertEqual(png.framesOut, 1)
        let first = try GIFTests.vipsFrames(input, count: 3, in: folder)[0]
        let reference = try ImageCodec.decode(try render(try ImageCodec.encode(first, options: .init(format: .png)), "resize width=80",
                                                         options: .init(format: .png)).bytes).image
        XCTAssertEqual(maxDifference(try ImageCodec.decode(png.bytes).image, reference), 0)
    }

    /// A `random` parameter is drawn once for the file: identical frames stay identical, and a
    /// geometry filter cuts every frame alike.
    func testRandomIsDrawnOncePerFile() throws {
        let folder = TemporaryFolder()
        let frame = try FormatTools.png(FormatTools.picture(width: 120, height: 90), "frame.png", in: folder)
        let input = folder.file("same.gif")
        try FormatTools.run(FormatTools.convert, ["-delay", "10", frame, frame, frame, frame, "-loop", "0", input])
        // GIF: WebPAnimEncoder would merge identical frames into one.
        let out = try Self.process(input, "color_controls brightness=random | crop x=random y=10 width=50 height=40",
                                   into: "out.gif", in: folder, options: .init(format: .gif))
        XCTAssertEqual(out.framesOut, 4)
        let frames = try GIFTests.vipsFrames(folder.file("out.gif"), count: 4, in: folder, name: "out.png")
        XCTAssertEqual(frames[0].size, out.size)
        for k in 1..<4 { XCTAssertEqual(maxDifference(frames[k], frames[0]), 0, "frame \(k)") }
    }

    /// A GIF's transparency survives: a frame's transparent pixels stay transparent in GIF and WebP.
    func testTransparencyKept() throws {
        let folder = TemporaryFolder()
        let input = folder.file("holes.gif")
        try FormatTools.run(FormatTools.convert, [
            "-delay", "10", "-dispose", "Background", "(", "-size", "60x40", "xc:none", "-fill", "blue", "-draw", "rectangle 0,0 29,39", ")",
            "(", "-size", "60x40", "xc:none", "-fill", "red", "-draw", "rectangle 30,0 59,39", ")", "-loop", "0", input,
        ])
        for format in [ImageFormat.gif, .webp] {
            var options = EncodeOptions(format: format)
            options.lossless = true
            try Self.process(input, "", into: "out.\(format.fileExtension)", in: folder, options: options)
            let frames = try GIFTests.vipsFrames(folder.file("out.\(format.fileExtension)"), count: 2, in: folder, name: "\(format).png")
            XCTAssertEqual(frames[0][10, 10][3], 1, "\(format)")
            XCTAssertEqual(frames[0][45, 10][3], 0, "\(format): transparent where the first frame is")
            XCTAssertEqual(frames[1][10, 10][3], 0, "\(format): cleared by the first frame's disposal")
            XCTAssertEqual(frames[1][45, 10][3], 1, "\(format)")
        }
    }
}

extension FormatTools {
    static let webpmux = ("webpmux", "webp")
}
