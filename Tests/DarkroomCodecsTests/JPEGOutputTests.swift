import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// JPEG output: chroma sampling (4:4:4 from quality 90, or as `chroma` says), optimised Huffman
/// tables, and grey images as one-component JPEGs. Sampling and components are read back by
/// ImageMagick's `identify`, not by darkroom.
final class JPEGOutputTests: XCTestCase {
    /// Colour that changes every few pixels, where 4:2:0's halved chroma shows.
    private let colourful = Image(width: 96, height: 64) { x, y in
        let (fx, fy) = (Float(x), Float(y))
        return Pixel(0.5 + 0.45 * sin(fx / 2.3), 0.5 + 0.45 * cos(fy / 1.7 + fx / 5), 0.5 + 0.45 * sin((fx + fy) / 3.1), 1)
    }

    /// `identify`'s sampling factors ("1x1,1x1,1x1" is 4:4:4, "2x2,1x1,1x1" is 4:2:0) and colour space.
    private func describe(_ jpeg: [UInt8]) throws -> String {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(jpeg, named: "out.jpg", in: folder)
        return try ReferenceTool.output(ReferenceTool.identify, ["-format", "%[jpeg:sampling-factor] %[colorspace]", path])
    }

    private func psnr(_ jpeg: [UInt8], against source: Image) throws -> Double {
        let decoded = try ImageCodec.decode(jpeg).image
        var squared = 0.0
        for (a, b) in zip(decoded.pixels, source.pixels) {
            let d = a - b
            squared += Double(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
        }
        let mse = squared / Double(3 * source.pixels.count)
        return 10 * log10(1 / mse)
    }

    func testChromaFollowsQualityUnlessToldOtherwise() throws {
        let cases: [(Int, EncodeOptions.Chroma, String)] = [
            (95, .auto, "1x1,1x1,1x1"), (90, .auto, "1x1,1x1,1x1"), (89, .auto, "2x2,1x1,1x1"),
            (95, .subsampled420, "2x2,1x1,1x1"), (60, .full444, "1x1,1x1,1x1"),
        ]
        for (quality, chroma, expected) in cases {
            let jpeg = try ImageCodec.encode(colourful, options: .init(format: .jpeg, quality: quality, chroma: chroma))
            XCTAssertEqual(try describe(jpeg), "\(expected) sRGB", "quality \(quality), chroma \(chroma)")
        }
    }

    /// At quality 95, 4:4:4 keeps colour detail 4:2:0 loses: libvips and ImageMagick switch for
    /// that reason (about 2 dB on photographs; more on this deliberately busy image).
    func testFullChromaGainsOverSubsampledAtHighQuality() throws {
        let full = try psnr(try ImageCodec.encode(colourful, options: .init(format: .jpeg, quality: 95)), against: colourful)
        let half = try psnr(try ImageCodec.encode(colourful, options: .init(format: .jpeg, quality: 95, chroma: .subsampled420)),
                            against: colourful)
        XCTAssertGreaterThan(full, half + 2, "4:4:4 \(full) dB, 4:2:0 \(half) dB")
        XCTAssertGreaterThan(full, 38)
    }

    func testOptimisedHuffmanTablesMakeSmallerFilesOfTheSamePixels() throws {
        for progressive in [false, true] {
            let optimised = try ImageCodec.encode(colourful, options: .init(format: .jpeg, quality: 85, progressive: progressive))
            let plain = try ImageCodec.encode(colourful, options: .init(format: .jpeg, quality: 85, progressive: progressive,
                                                                       optimizeCoding: false))
            if !progressive { XCTAssertLessThan(optimised.count, plain.count) }
            // Huffman coding is lossless: the same coefficients, the same pixels.
            XCTAssertEqual(try ImageCodec.decode(optimised).image.pixels, try ImageCodec.decode(plain).image.pixels)
        }
    }

    /// Above 4 megapixels the default is libjpeg's standard tables (optimising would hold the
    /// whole image's coefficients); asked for, they are still optimised.
    func testLargeOutputsStreamWithStandardTablesUnlessAsked() throws {
        let large = Image(width: 2100, height: 2000) { x, y in
            Pixel(Float((x * 7 + y) % 256) / 255, Float((x ^ y) & 255) / 255, Float((x * y) % 251) / 251, 1)
        }
        let byDefault = try ImageCodec.encode(large, options: .init(format: .jpeg, quality: 85))
        let plain = try ImageCodec.encode(large, options: .init(format: .jpeg, quality: 85, optimizeCoding: false))
        let asked = try ImageCodec.encode(large, options: .init(format: .jpeg, quality: 85, optimizeCoding: true))
        XCTAssertEqual(byDefault, plain)
        XCTAssertLessThan(asked.count, plain.count)
        // What the encoder holds, as the daemon's memory estimate counts it.
        let traits = OutputTraits(alpha: false)
        XCTAssertEqual(ImageEncoder.heldBytes(size: large.size, options: .init(format: .jpeg, quality: 85), traits: traits), 0)
        XCTAssertEqual(ImageEncoder.heldBytes(size: large.size, options: .init(format: .jpeg, quality: 85, optimizeCoding: true),
                                              traits: traits), 2100 * 2000 * 3)
        XCTAssertEqual(ImageEncoder.heldBytes(size: Size(width: 800, height: 600), options: .init(format: .jpeg, quality: 95),
                                              traits: traits), 800 * 600 * 6)
    }

    func testGreyInputGivesOneComponentJPEG() throws {
        for fixture in ["gray8.png", "gray16.png", "gray.jpg"] {
            let input = try Fixtures.bytes(fixture)
            let output = try render(input, options: .init(format: .jpeg, quality: 95))
            XCTAssertEqual(try describe(output.bytes), "1x1 Gray", fixture)
            let decoded = try ImageCodec.decode(output.bytes)
            XCTAssertEqual(decoded.info.channels, 1)
            let source = try ImageCodec.decode(input).image
            XCTAssertLessThan(zip(decoded.image.pixels, source.pixels).map { absoluteDifference($0, $1).max() }.max()!, 3 / 255, fixture)
            // A colour filter widens grey to YCbCr.
            let toned = try render(input, "sepia", options: .init(format: .jpeg, quality: 95))
            XCTAssertEqual(try describe(toned.bytes), "1x1,1x1,1x1 sRGB", fixture)
        }
    }

    /// Grey with alpha: flattened on white, as colour JPEGs are, into one component.
    func testGreyAlphaIsFlattenedOnWhite() throws {
        let input = try Fixtures.bytes("gray_alpha8.png")
        let output = try render(input, options: .init(format: .jpeg, quality: 100))
        XCTAssertEqual(try describe(output.bytes), "1x1 Gray")
        let source = try ImageCodec.decode(input).image, decoded = try ImageCodec.decode(output.bytes).image
        for (got, p) in zip(decoded.pixels, source.pixels) {
            let white = p[0] + (1 - p[3])  // premultiplied grey over white
            XCTAssertEqual(got[0], white, accuracy: 4 / 255)
        }
    }
}
