import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// `auto_orient`: EXIF orientations 1–8 turned upright exactly as `vips autorot` does (pixel for
/// pixel: it is a flip or transpose), with the chain's geometry on the upright image.
final class OrientationTests: XCTestCase {
    /// 37×23, no symmetry: every flip and transpose of it is different.
    private let picture = Image(width: 37, height: 23) { x, y in
        Pixel(Float(x) / 36, Float(y) / 22, Float((7 * x + 3 * y) % 11) / 10, 1)
    }

    private func chain(_ text: String) throws -> CompiledChain {
        text.isEmpty ? CompiledChain(stages: []) : ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1))
    }

    /// Renders `input` to PNG and decodes the result.
    private func render(_ input: [UInt8], chain text: String = "", autoOrient: Bool = true) throws
        -> (image: Image, output: ChainRenderer.Output, plan: ChainRenderer.Plan) {
        let header = try ImageCodec.readInfo(input)
        let plan = ChainRenderer.plan(try chain(text), header: header, autoOrient: autoOrient)
        let output = try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: .png), limits: DecodeLimits())
        return (try ImageCodec.decode(output.bytes).image, output, plan)
    }

    private func tagged(_ orientation: Int, format: ImageFormat) throws -> [UInt8] {
        let encoded = try ImageCodec.encode(picture, options: EncodeOptions(format: format, quality: 95))
        let exif = Splice.exifOrientation(orientation)
        return format == .jpeg ? Splice.jpeg(encoded, exif: exif) : Splice.png(encoded, exif: exif)
    }

    private func vips(_ input: [UInt8], _ arguments: [String]) throws -> Image {
        try ImageCodec.decode(Vips.run(input, name: "input", arguments)).image
    }

    /// Small images stream through the orientation node; large ones (taller than a few bands)
    /// go through its whole compact copy, where most orientations read rows far apart.
    func testEveryOrientationMatchesVipsAutorotExactly() throws {
        for format in [ImageFormat.jpeg, .png] {
            try assertMatchesAutorot(picture, format: format)
            try assertMatchesAutorot(large, format: format)
        }
    }

    /// 300×260: past the pipeline's streaming reach (4 bands of 32 rows and 64 more).
    private let large = Image(width: 300, height: 260) { x, y in
        Pixel(Float(x) / 299, Float(y) / 259, Float((7 * x + 3 * y) % 101) / 100, 1)
    }

    /// Transparent pixels go through the 16-bit compact copy: equal to vips within rounding.
    func testOrientationKeepsAlpha() throws {
        let translucent = Image(width: 300, height: 260) { x, y in
            Pixel(Float(x) / 299, Float(y) / 259, 0.5, Float((x + y) % 256) / 255).premultiplied
        }
        let input = Splice.png(try ImageCodec.encode(translucent, options: EncodeOptions(format: .png)),
                               exif: Splice.exifOrientation(8))
        let (ours, _, plan) = try render(input)
        XCTAssertTrue(plan.pipeline.nodeSizes.contains { $0.names == ["auto_orient"] })
        let reference = try vips(input, ["autorot", "$IN", "$OUT"])
        XCTAssertEqual(ours.size, reference.size)
        let worst = zip(ours.pixels, reference.pixels).map { absoluteDifference($0, $1).max() }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1.01 / 255)
    }

    private func assertMatchesAutorot(_ picture: Image, format: ImageFormat) throws {
        let stored = picture.size
        for orientation in 1...8 {
            let encoded = try ImageCodec.encode(picture, options: EncodeOptions(format: format, quality: 95))
            let exif = Splice.exifOrientation(orientation)
            let input = format == .jpeg ? Splice.jpeg(encoded, exif: exif) : Splice.png(encoded, exif: exif)
            XCTAssertEqual(try ImageCodec.readInfo(input).orientation, orientation)
            let (ours, output, _) = try render(input)
            let reference = try vips(input, ["autorot", "$IN", "$OUT"])
            let what = "\(format) \(stored) orientation \(orientation)"
            XCTAssertEqual(ours.size, reference.size, what)
            XCTAssertEqual(ours.size, orientation >= 5 ? Size(width: stored.height, height: stored.width) : stored, what)
            XCTAssertTrue(ours.pixels == reference.pixels, "\(what): pixels differ from vips autorot")
            XCTAssertEqual(output.orientationApplied, orientation, what)
        }
    }

    func testAutoOrientOffKeepsThePixelsAsStored() throws {
        let input = try tagged(6, format: .png)
        let (ours, output, plan) = try render(input, autoOrient: false)
        XCTAssertEqual(ours.pixels, try ImageCodec.decode(input).image.pixels)
        XCTAssertEqual(output.orientationApplied, 1)
        XCTAssertEqual(plan.pipeline.nodeSizes.count, 1, "no orientation node when nothing is turned")
    }

    func testUprightInputTakesNoExtraNode() throws {
        let (_, output, plan) = try render(try tagged(1, format: .jpeg))
        XCTAssertEqual(plan.pipeline.nodeSizes.map(\.names), [["decode"]])
        XCTAssertEqual(output.orientationApplied, 1)
    }

    /// A crop's rectangle is on the upright image, and is still done by the decoder (crop-on-load).
    func testCropRefersToTheUprightImage() throws {
        for orientation in [2, 3, 5, 6, 7, 8] {
            let input = try tagged(orientation, format: .jpeg)
            let (ours, output, _) = try render(input, chain: "crop x=3 y=5 width=15 height=9")
            let upright = try ImageCodec.encode(try vips(input, ["autorot", "$IN", "$OUT"]), options: EncodeOptions(format: .png))
            let reference = try vips(upright, ["crop", "$IN", "$OUT", "3", "5", "15", "9"])
            XCTAssertTrue(ours.pixels == reference.pixels, "orientation \(orientation)")
            XCTAssertNotNil(output.cropOnLoad, "orientation \(orientation): the crop was not done on load")
        }
    }

    /// The shrink-on-load factor is chosen from the upright size (a 400×200 photo standing as
    /// 200×400, resized to 20 wide, shrinks 10×: the decoder may reduce by 4, not 8).
    func testShrinkOnLoadIsPlannedOnTheUprightSize() throws {
        let big = Image(width: 400, height: 200) { x, y in Pixel(Float(x) / 399, Float(y) / 199, 0.5, 1) }
        let input = Splice.jpeg(try ImageCodec.encode(big, options: EncodeOptions(format: .jpeg, quality: 95)),
                                exif: Splice.exifOrientation(6))
        let (ours, output, _) = try render(input, chain: "resize width=20")
        XCTAssertEqual(ours.size, Size(width: 20, height: 40))
        XCTAssertEqual(output.shrinkOnLoad, 4)
        // The same chain on the file vips turned upright (decoded whole, then resized).
        let upright = try ImageCodec.encode(try vips(input, ["autorot", "$IN", "$OUT"]), options: EncodeOptions(format: .png))
        let (reference, _, _) = try render(upright, chain: "resize width=20")
        XCTAssertGreaterThan(psnr(ours, reference), 35)
    }
}
