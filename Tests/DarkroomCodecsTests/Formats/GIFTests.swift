import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// GIF in, against libvips' gifload (libnsgif) with `[n=-1]` and `gifsicle --info`: still and
/// animated, every frame composed on the canvas with its disposal (none, background, previous),
/// offset and transparency; a stated 65535×65535 canvas refused before decoding; truncated and
/// corrupt files failing with their codes.
final class GIFTests: XCTestCase {
    /// Five frames made by ImageMagick exercising each disposal, frame offsets and a transparent index.
    static func trickyAnimation(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("tricky.gif")
        try FormatTools.run(FormatTools.convert, [
            "-delay", "10", "-dispose", "None", "-size", "80x60", "gradient:skyblue-navy",
            "-dispose", "Previous", "-page", "80x60+10+10", "-size", "20x20", "xc:red",
            "-dispose", "Background", "-delay", "20", "-page", "80x60+40+30", "-size", "30x20", "xc:yellow",
            "-dispose", "None", "-delay", "5", "-page", "80x60+50+5", "(", "-size", "20x20", "xc:none", "-fill", "green",
            "-draw", "circle 10,10 10,2", ")",
            "-dispose", "None", "-page", "80x60+0+0", "(", "-size", "15x15", "xc:white", ")", "-loop", "0", path,
        ])
        return path
    }

    /// libvips' frames of `path` (`[n=-1]`: the frames stacked top to bottom), cut apart.
    static func vipsFrames(_ path: String, count: Int, in folder: TemporaryFolder, name: String = "vips.png") throws -> [Image] {
        try FormatTools.run(FormatTools.vips, ["copy", path + "[n=-1]", folder.file(name)])
        let strip = try FormatTools.decode(folder.file(name)).image
        XCTAssertEqual(strip.height % count, 0, "vips stacks \(count) frames")
        let height = strip.height / count
        return (0..<count).map { k in Image(width: strip.width, height: height) { x, y in strip[x, k * height + y] } }
    }

    /// Every frame as darkroom composes it, with its delay.
    static func frames(_ bytes: [UInt8]) throws -> [(image: Image, delay: Int)] {
        let frames = try AnimationFrames(ImageInput(bytes), limits: .init())
        var result: [(Image, Int)] = []
        while let frame = try frames.next() {
            let source = frame.source
            let image = Image(width: source.size.width, height: source.size.height) { buffer in
                try! source.readRows(count: source.size.height, into: buffer.baseAddress!, stride: source.size.width)
            }
            result.append((image, frame.delay))
        }
        return result
    }

    func testAnimationComposedLikeVips() throws {
        let folder = TemporaryFolder()
        let path = try Self.trickyAnimation(in: folder)
        let bytes = try folder.bytes("tricky.gif")
        let info = try ImageCodec.readInfo(bytes)
        XCTAssertEqual(info.format, .gif)
        XCTAssertEqual(info.pages, 5)
        XCTAssertEqual(Size(width: info.width, height: info.height), Size(width: 80, height: 60))
        let ours = try Self.frames(bytes)
        let reference = try Self.vipsFrames(path, count: 5, in: folder)
        XCTAssertEqual(ours.count, 5)
        XCTAssertEqual(ours.map(\.delay), [100, 100, 200, 50, 50], "gifsicle --info: 0.10s 0.10s 0.20s 0.05s 0.05s")
        for (k, (frame, expected)) in zip(ours.map(\.image), reference).enumerated() {
            XCTAssertEqual(maxDifference(frame, expected), 0, "frame \(k)")
        }
        let frames = try AnimationFrames(ImageInput(bytes), limits: .init())
        XCTAssertEqual(frames.loopCount, 0, "gifsicle --info: loop forever")
        XCTAssertEqual(frames.count, 5)
    }

    func testStillGIFDecodesLikeVips() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 120, height: 90), "in.png", in: folder)
        let gif = folder.file("in.gif")
        try FormatTools.run(FormatTools.convert, [png, "-colors", "200", gif])
        let (image, info) = try FormatTools.decode(gif)
        XCTAssertEqual(info.format, .gif)
        XCTAssertEqual(info.pages, 1)
        XCTAssertFalse(info.hasAlpha)
        let reference = try Self.vipsFrames(gif, count: 1, in: folder)[0]
        XCTAssertEqual(maxDifference(image, reference), 0)
        // A chain reads it like any other input.
        let out = try render(try folder.bytes("in.gif"), "resize width=60", options: .init(format: .png))
        XCTAssertEqual(out.size, Size(width: 60, height: 45))
    }

    /// A GIF's header may state a canvas of 65535×65535 in a few dozen bytes: refused from the
    /// header, before any pixel memory.
    func testHugeStatedCanvasIsTooLargeBeforeDecoding() throws {
        let folder = TemporaryFolder()
        try FormatTools.run(FormatTools.convert, ["-size", "1x1", "xc:red", folder.file("tiny.gif")])
        var bytes = try folder.bytes("tiny.gif")
        bytes.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let info = try ImageCodec.readInfo(bytes)
        XCTAssertEqual(Size(width: info.width, height: info.height), Size(width: 65535, height: 65535))
        XCTAssertThrowsError(try ImageDecoder(bytes)) { XCTAssertEqual(($0 as? CodecError)?.code, .tooLarge) }
        XCTAssertThrowsError(try AnimationFrames(ImageInput(bytes), limits: .init())) {
            XCTAssertEqual(($0 as? CodecError)?.code, .tooLarge)
        }
        // A frame that reaches past the stated screen grows the canvas, and that is what is checked.
        var grown = try folder.bytes("tiny.gif")
        let descriptor = try XCTUnwrap(grown.firstIndex(of: 0x2C))
        grown.replaceSubrange(descriptor + 1..<descriptor + 5, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertThrowsError(try ImageDecoder(grown)) { XCTAssertEqual(($0 as? CodecError)?.code, .tooLarge) }
    }

    func testTruncatedAndCorruptFilesFailWithTheirCodes() throws {
        let folder = TemporaryFolder()
        _ = try Self.trickyAnimation(in: folder)
        let bytes = try folder.bytes("tricky.gif")
        for cut in [8, 14, bytes.count / 3, bytes.count / 2, bytes.count - 20] {
            let truncated = Array(bytes.prefix(cut))
            XCTAssertThrowsError(try ImageDecoder(truncated), "cut at \(cut)") {
                XCTAssertEqual(($0 as? CodecError)?.code, .truncated, "cut at \(cut): \($0)")
            }
            XCTAssertThrowsError(try AnimationFrames(ImageInput(truncated), limits: .init()), "cut at \(cut)") {
                XCTAssertEqual(($0 as? CodecError)?.code, .truncated, "cut at \(cut): \($0)")
            }
        }
        // An unknown block where the first image should start.
        var corrupt = bytes
        let first = try XCTUnwrap(corrupt.firstIndex(of: 0x2C))
        corrupt[first] = 0x55
        XCTAssertThrowsError(try ImageDecoder(corrupt)) { XCTAssertEqual(($0 as? CodecError)?.code, .corrupt, "\($0)") }
        // LZW codes that point past the table: giflib refuses them.
        var badCodes = bytes
        let data = first + 10 + 1  // descriptor, then the LZW minimum code size
        badCodes[data - 1] = 2
        for i in data + 1..<data + 12 { badCodes[i] = 0xFF }
        XCTAssertThrowsError(try FormatTools.decodeBytes(badCodes)) { XCTAssertEqual(($0 as? CodecError)?.code, .corrupt, "\($0)") }
    }
}

extension FormatTools {
    static let gifsicle = ("gifsicle", "gifsicle")

    /// `bytes` decoded whole by darkroom.
    static func decodeBytes(_ bytes: [UInt8]) throws -> Image { try ImageCodec.decode(bytes).image }
}
