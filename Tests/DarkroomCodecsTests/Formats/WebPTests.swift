import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// WebP in (lossy, lossless, alpha, animation) against dwebp, and out (lossless bit-exact,
/// lossy with its quality and effort, alpha kept) read back by dwebp and vips.
final class WebPTests: XCTestCase {
    func testLossyAndLosslessDecodeLikeDwebp() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 300, height: 200, alpha: true), "in.png", in: folder)
        for (name, options) in [("lossy", ["-q", "80"]), ("lossless", ["-lossless", "-exact"]), ("lossy_noalpha", ["-q", "60", "-noalpha"])] {
            let webp = folder.file("\(name).webp"), reference = folder.file("\(name)_dwebp.png")
            try FormatTools.run(FormatTools.cwebp, ["-quiet"] + options + [png, "-o", webp])
            try FormatTools.run(FormatTools.dwebp, ["-quiet", webp, "-o", reference])
            let (image, info) = try FormatTools.decode(webp)
            XCTAssertEqual(info.format, .webp, name)
            XCTAssertEqual(info.hasAlpha, name != "lossy_noalpha", name)
            XCTAssertEqual(maxDifference(image, try FormatTools.decode(reference).image), 0, name)
            if name == "lossless" { XCTAssertEqual(maxDifference(image, try FormatTools.decode(png).image), 0) }
        }
    }

    /// The incremental decoder hands out a crop's rows as the pipeline asks for them.
    func testCropOnLoadMatchesAWholeDecode() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 400, height: 300), "in.png", in: folder)
        try FormatTools.run(FormatTools.cwebp, ["-quiet", "-q", "70", png, "-o", folder.file("in.webp")])
        try FormatTools.assertCropOnLoadMatchesAWholeDecode(try folder.bytes("in.webp"), Rect(x: 33, y: 250, width: 100, height: 40))
    }

    func testAnimationGivesItsFirstFrameAndFrameCount() throws {
        let folder = TemporaryFolder()
        let first = try FormatTools.png(FormatTools.picture(width: 32, height: 24), "a.png", in: folder)
        let second = try FormatTools.png(Image(width: 32, height: 24, fill: Pixel(1, 0, 0, 1)), "b.png", in: folder)
        let third = try FormatTools.png(Image(width: 32, height: 24, fill: Pixel(0, 0, 1, 1)), "c.png", in: folder)
        try FormatTools.run(FormatTools.img2webp, ["-lossless", first, second, third, "-o", folder.file("anim.webp")])
        let (image, info) = try FormatTools.decode(folder.file("anim.webp"))
        XCTAssertEqual(info.pages, 3)
        XCTAssertEqual(image.size, Size(width: 32, height: 24))
        XCTAssertEqual(maxDifference(image, try FormatTools.decode(first).image), 0)
    }

    func testLosslessOutputIsBitExactAndKeepsAlpha() throws {
        let folder = TemporaryFolder()
        let picture = FormatTools.picture(width: 90, height: 70, alpha: true)
        let input = try ImageCodec.encode(picture, options: .init(format: .png))
        var options = EncodeOptions(format: .webp)
        options.lossless = true
        let out = try render(input, options: options)
        let written = try ReferenceTool.file(out.bytes, named: "out.webp", in: folder)
        try FormatTools.run(FormatTools.dwebp, ["-quiet", written, "-o", folder.file("back.png")])
        let back = try folder.bytes("back.png")
        XCTAssertEqual(pngHeader(back).colorType, 6, "RGBA")
        XCTAssertEqual(maxDifference(try ImageCodec.decode(back).image, try ImageCodec.decode(input).image), 0)
    }

    /// Quality and effort reach libwebp: each output is as close to the source as cwebp's with
    /// the same settings, and a lower quality makes a smaller file.
    func testLossyOutputFollowsQualityAndEffort() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 320, height: 240), "in.png", in: folder)
        let input = try folder.bytes("in.png"), source = try ImageCodec.decode(input).image
        var sizes = [Int: Int]()
        for quality in [30, 90] {
            var options = EncodeOptions(format: .webp, quality: quality)
            options.effort = 6
            let out = try render(input, options: options)
            sizes[quality] = out.bytes.count
            let written = try ReferenceTool.file(out.bytes, named: "q\(quality).webp", in: folder)
            try FormatTools.run(FormatTools.dwebp, ["-quiet", written, "-o", folder.file("q\(quality).png")])
            let back = try FormatTools.decode(folder.file("q\(quality).png")).image
            try FormatTools.run(FormatTools.cwebp, ["-quiet", "-q", "\(quality)", "-m", "6", png, "-o", folder.file("ref.webp")])
            try FormatTools.run(FormatTools.dwebp, ["-quiet", folder.file("ref.webp"), "-o", folder.file("ref.png")])
            let reference = psnr(try FormatTools.decode(folder.file("ref.png")).image, source)
            XCTAssertGreaterThan(psnr(back, source), reference - 0.3, "quality \(quality)")
            XCTAssertTrue(back.isOpaque)
        }
        XCTAssertLessThan(sizes[30]!, sizes[90]!, "lower quality, smaller file: \(sizes)")
    }

    /// Lossy rows are converted to YUV as they come, a pair-aligned run at a time: rows handed
    /// over in runs of every length (an odd row waiting for its pair) give the file that one
    /// run of the whole picture gives (libwebp's own whole-picture conversion), byte for byte,
    /// with and without alpha, for odd and even heights.
    func testLossyRowsInRunsOfAnyLengthGiveTheWholePicturesFile() throws {
        for (alpha, height) in [(false, 37), (false, 36), (true, 37), (true, 36)] {
            let size = Size(width: 45, height: height)
            let options = EncodeOptions(format: .webp, quality: 75)
            var whole = try ImageEncoder(size: size, options: options, traits: OutputTraits(alpha: alpha))
            var runs = try ImageEncoder(size: size, options: options, traits: OutputTraits(alpha: alpha))
            let channels = alpha ? 4 : 3  // 8-bit RGB(A) rows, as the quantiser makes them
            let rowBytes = size.width * channels
            let bytes = (0..<rowBytes * height).map { i -> UInt8 in
                let x = i % rowBytes / channels, y = i / rowBytes, c = i % channels
                return c == 3 ? UInt8(x * 5 % 256) : UInt8((x * 7 + y * 11 + c * 60 + (x * y) % 13) % 256)
            }
            try whole.write(bytes, rows: 0..<height)
            var y = 0
            for length in [1, 3, 2, 5, 1, 1, 4, 7].cycled() {
                let n = min(length, height - y)
                try runs.write(Array(bytes[y * rowBytes..<(y + n) * rowBytes]), rows: y..<(y + n))
                y += n
                if y == height { break }
            }
            let expected = try whole.finish(), got = try runs.finish()
            XCTAssertEqual(got, expected, "alpha \(alpha), height \(height)")
            XCTAssertEqual(try ImageCodec.readInfo(got).hasAlpha, alpha)
        }
    }
}

private extension Array {
    /// The elements over and over.
    func cycled() -> UnfoldSequence<Element, Int> {
        sequence(state: 0) { i in defer { i += 1 }; return self[i % count] }
    }
}
