import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// AVIF out at `bitDepth: 10` (libavif with libaom, since libheif 1.15 aborts on 10-bit):
/// `avifdec --info` (libavif's own reader) sees a 10-bit AV1 image with its alpha, ICC, EXIF and
/// XMP; darkroom (libheif) and vips decode it back close to the 16-bit input, and a slow
/// gradient keeps more than 8 bits of levels. 8-bit stays the default.
final class AVIFTenBitTests: XCTestCase {
    /// A 16-bit RGBA picture whose red channel climbs 0.40…0.45 across the width: 8 bits hold
    /// 13 levels of it, 10 bits about 51.
    private static func gradient(width: Int = 256, height: Int = 32) -> Image {
        Image(width: width, height: height) { x, y in
            let u = Float(x) / Float(width - 1)
            let a: Float = y < height / 2 ? 1 : 0.5
            return Pixel(0.40 + 0.05 * u, 0.5, 0.3 + 0.2 * Float(y) / Float(height - 1), 1).premultiplied(by: a)
        }
    }

    private func options(bitDepth: Int?, quality: Int = 90) -> EncodeOptions {
        var options = EncodeOptions(format: .avif, quality: quality, bitDepth: bitDepth)
        options.speed = 8
        return options
    }

    /// The distinct red values (in 1/65535) along the opaque top row.
    private func redLevels(_ image: Image) -> Int {
        Set((0..<image.size.width).map { Int((image[$0, 2][0] * 65535).rounded()) }).count
    }

    func testTenBitAVIFIsTenBitWithAlphaAndDecodesCloseToTheInput() throws {
        let folder = TemporaryFolder()
        let input = try ImageCodec.encode(Self.gradient(), options: .init(format: .png, bitDepth: 16))
        let source = try ImageCodec.decode(input).image
        let out = try render(input, options: options(bitDepth: 10))
        let path = try ReferenceTool.file(out.bytes, named: "deep.avif", in: folder)

        let info = try FormatTools.run(FormatTools.avifdec, ["--info", path])
        XCTAssertTrue(info.contains("Bit Depth      : 10"), info)
        XCTAssertTrue(info.contains("Format         : YUV444"), "quality 90 keeps full chroma: \(info)")
        XCTAssertTrue(info.contains("Alpha          : Not premultiplied"), "alpha kept: \(info)")

        let (back, header) = try ImageCodec.decode(out.bytes)
        XCTAssertEqual(header.format, .avif)
        XCTAssertEqual(header.bitDepth, 10)
        XCTAssertFalse(back.isOpaque, "alpha kept")
        XCTAssertGreaterThan(psnr(back, source), 45)
        XCTAssertGreaterThan(redLevels(back), 30, "a 10-bit gradient keeps more than 8-bit's 13 levels")

        try FormatTools.run(FormatTools.vips, ["copy", path, folder.file("vips.png")])
        let viaVips = try FormatTools.decode(folder.file("vips.png"))
        XCTAssertEqual(viaVips.info.bitDepth, 16, "vips reads 10-bit AVIF as 16-bit")
        XCTAssertFalse(viaVips.image.isOpaque, "alpha kept")
        XCTAssertGreaterThan(psnr(viaVips.image, source), 45)
    }

    /// 8-bit is what `bitDepth` nil and 8 write, from a 16-bit source too: the same file
    /// through libheif as before, with the 8-bit gradient's 13 levels.
    func testEightBitIsTheDefaultAndUnchanged() throws {
        let input = try ImageCodec.encode(Self.gradient(), options: .init(format: .png, bitDepth: 16))
        let plain = try render(input, options: options(bitDepth: nil))
        XCTAssertEqual(plain.bytes, try render(input, options: options(bitDepth: 8)).bytes)
        let (back, header) = try ImageCodec.decode(plain.bytes)
        XCTAssertEqual(header.bitDepth, 8)
        XCTAssertLessThanOrEqual(redLevels(back), 16)
        XCTAssertGreaterThan(psnr(back, try ImageCodec.decode(input).image), 40)
    }

    /// Lower quality is smaller at 10 bits too, and 4:2:0 below quality 90 as at 8 bits.
    func testQualityAndChromaFollowTheEightBitMapping() throws {
        let folder = TemporaryFolder()
        let input = try ImageCodec.encode(FormatTools.picture(width: 96, height: 64, alpha: true), options: .init(format: .png, bitDepth: 16))
        var sizes = [Int: Int]()
        for quality in [30, 80] {
            let out = try render(input, options: options(bitDepth: 10, quality: quality))
            sizes[quality] = out.bytes.count
            let info = try FormatTools.run(FormatTools.avifdec, ["--info", try ReferenceTool.file(out.bytes, named: "q\(quality).avif", in: folder)])
            XCTAssertTrue(info.contains("Bit Depth      : 10") && info.contains("Format         : YUV420"), info)
            XCTAssertGreaterThan(psnr(try ImageCodec.decode(out.bytes).image, try ImageCodec.decode(input).image), quality == 80 ? 35 : 25)
        }
        XCTAssertLessThan(sizes[30]!, sizes[80]!, "\(sizes)")
    }

    /// The ICC profile, EXIF and XMP go into the 10-bit file as into the 8-bit one.
    func testMetadataAndProfileAreAttached() throws {
        let folder = TemporaryFolder()
        let input = try ImageCodec.encode(FormatTools.picture(), options: .init(format: .png, bitDepth: 16))
        let xmp = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/></x:xmpmeta>".utf8)
        for depth in [8, 10] {
            var options = options(bitDepth: depth)
            options.metadata = ImageMetadata(exif: Splice.exifOrientation(1), xmp: xmp)
            options.icc = ICCProfile.sRGB
            let out = try render(input, options: options)
            let info = try FormatTools.run(FormatTools.avifdec, ["--info", try ReferenceTool.file(out.bytes, named: "m\(depth).avif", in: folder)])
            XCTAssertTrue(info.contains("Bit Depth      : \(depth)"), info)
            for line in ["ICC Profile    : Present", "XMP Metadata   : Present", "Exif Metadata  : Present"] {
                XCTAssertTrue(info.contains(line), "\(depth)-bit: \(line) in \(info)")
            }
            XCTAssertNotNil(ImageMetadata.read(from: out.bytes).xmp, "\(depth)-bit: XMP read back by darkroom")
        }
    }

    /// Rows left as stored keep their EXIF orientation at 10 bits too (as irot, the mirror done
    /// on the rows, since libheif 1.15 cannot mirror a 10-bit image): the picture shows upright
    /// as `vips autorot` turns the source JPEG, for every orientation.
    func testOrientationTravelsAsIrotImir() throws {
        let clean = try ImageCodec.encode(FormatTools.picture(width: 40, height: 24), options: .init(format: .jpeg, quality: 95))
        for orientation in 2...8 {
            let jpeg = Splice.jpeg(clean, exif: Splice.exifOrientation(orientation))
            var options = options(bitDepth: 10)
            options.metadata = ImageMetadata.read(from: jpeg)
            let out = try render(jpeg, options: options, autoOrient: false)
            let (shown, info) = try ImageCodec.decode(out.bytes)
            XCTAssertEqual(info.bitDepth, 10)
            let upright = try ImageCodec.decode(try Vips.run(jpeg, name: "in.jpg", ["autorot", "$IN", "$OUT"])).image
            XCTAssertEqual(shown.size, upright.size, "orientation \(orientation)")
            XCTAssertGreaterThan(psnr(shown, upright), 30, "orientation \(orientation)")
        }
    }

    /// A depth AVIF cannot take is an encode error that says which it can.
    func testOtherDepthsAreAnErrorNamingTheChoices() throws {
        let input = try ImageCodec.encode(FormatTools.picture(), options: .init(format: .png))
        XCTAssertThrowsError(try render(input, options: options(bitDepth: 12))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .unsupported, "\(error)")
            XCTAssertTrue((error as? CodecError)?.message.contains("8- or 10-bit") == true, "\(error)")
        }
    }
}
