import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// HEIC and AVIF in (against heif-convert; 10-bit kept as 16; ICC and nclx colour converted;
/// irot/imir applied) and AVIF out (quality, speed, alpha, orientation), read back by vips.
final class HEIFTests: XCTestCase {
    func testHEICAndAVIFDecodeLikeHeifConvert() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 96, height: 64, alpha: true), "in.png", in: folder)
        for (name, options) in [("in.heic", ["-q", "80"]), ("in.avif", ["-A", "-q", "80"])] {
            try FormatTools.run(FormatTools.heifEnc, options + [png, "-o", folder.file(name)])
            try FormatTools.run(FormatTools.heifConvert, [folder.file(name), folder.file(name + ".png")])
            let (image, info) = try FormatTools.decode(folder.file(name))
            XCTAssertEqual(info.format, name.hasSuffix("avif") ? .avif : .heif, name)
            XCTAssertTrue(info.hasAlpha, name)
            XCTAssertEqual(info.bitDepth, 8, name)
            let reference = try FormatTools.decode(folder.file(name + ".png")).image
            XCTAssertEqual(maxDifference(image, reference), 0, name)
            XCTAssertGreaterThan(psnr(image, try FormatTools.decode(png).image), 30, name)
        }
    }

    /// A grid HEIC, as phones store photos (grid.heic: 3×2 HEVC tiles, see the fixtures'
    /// README), decodes whole, as heif-convert decodes it.
    func testAGridHEICDecodesLikeHeifConvert() throws {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(try Fixtures.bytes("grid.heic"), named: "grid.heic", in: folder)
        try FormatTools.run(FormatTools.heifConvert, [path, folder.file("grid.png")])
        let (image, info) = try FormatTools.decode(path)
        XCTAssertEqual(info.format, .heif)
        XCTAssertEqual(image.size, Size(width: 192, height: 128))
        XCTAssertEqual(maxDifference(image, try FormatTools.decode(folder.file("grid.png")).image), 0)
    }

    /// A HEVC picture coded for parallel decoding (heif-enc's x265 codes wavefront rows; 640×480
    /// is 8 rows of 64×64 blocks), which darkroom's decoder plugin decodes with a libde265
    /// worker per core and takes as libheif's RGB planes, decodes as heif-convert (libheif's own
    /// one-thread libde265 plugin, interleaved RGB) does: 8-bit identical, 10-bit within two
    /// 10-bit steps of premultiplied colour (heif-convert widens to 16 bits by a shift, darkroom
    /// to the full range: colour and alpha each differ by under one step), with alpha, in full
    /// and limited range.
    func testWavefrontHEVCDecodesLikeHeifConvert() throws {
        let folder = TemporaryFolder()
        let picture = FormatTools.picture(width: 640, height: 480, alpha: true)
        for bitDepth in [8, 16] {
            let png = try FormatTools.png(picture, "in\(bitDepth).png", in: folder, bitDepth: bitDepth)
            for range in ["1", "0"] {
                let name = "wpp-\(bitDepth)-\(range).heic"
                try FormatTools.run(FormatTools.heifEnc, ["-q", "85", "--full_range_flag", range, png, "-o", folder.file(name)])
                try FormatTools.run(FormatTools.heifConvert, [folder.file(name), folder.file(name + ".png")])
                let (image, info) = try FormatTools.decode(folder.file(name))
                XCTAssertEqual(info.bitDepth, bitDepth == 8 ? 8 : 10, name)
                XCTAssertTrue(info.hasAlpha, name)
                let difference = maxDifference(image, try FormatTools.decode(folder.file(name + ".png")).image)
                XCTAssertLessThanOrEqual(difference, bitDepth == 8 ? 0 : 2 * 255.0 / 1023, name)
                XCTAssertGreaterThan(psnr(image, picture), 30, name)
            }
        }
    }

    /// Every chroma layout reaches the reader as libheif's R, G and B planes: 4:4:4 and 4:2:2
    /// (heif-enc's chroma option), monochrome (a grey PNG makes a 4:0:0 HEIC) and RGB coded
    /// directly (matrix 0) decode as heif-convert decodes them.
    func testEveryChromaLayoutDecodesLikeHeifConvert() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 160, height: 120), "in.png", in: folder)
        try FormatTools.run(FormatTools.vips, ["colourspace", png, folder.file("grey.png"), "b-w"])
        let cases = [("444.heic", ["-p", "chroma=444", png]), ("422.heic", ["-p", "chroma=422", png]),
                     ("grey.heic", [folder.file("grey.png")]), ("rgb.heic", ["--matrix_coefficients=0", png])]
        for (name, arguments) in cases {
            try FormatTools.run(FormatTools.heifEnc, ["-q", "80"] + arguments + ["-o", folder.file(name)])
            try FormatTools.run(FormatTools.heifConvert, [folder.file(name), folder.file(name + ".png")])
            let image = try FormatTools.decode(folder.file(name)).image
            XCTAssertEqual(maxDifference(image, try FormatTools.decode(folder.file(name + ".png")).image), 0, name)
        }
    }

    /// libheif cannot stop a decode, but it reads each coded item (a grid's tiles one by one)
    /// just before decoding it, and darkroom's reader refuses those reads once the job's
    /// deadline has passed: the decode ends as a timeout, while the header (read before) is
    /// still described. A deadline to come decodes as usual.
    func testThePassedDeadlineStopsAHEIFDecodeAsATimeout() throws {
        let past = Deadline(nanoseconds: Deadline.now() - 1)
        let later = Deadline(nanoseconds: Deadline.now() + 600_000_000_000)
        for name in ["grid.heic", "noise.heic", "noise.avif"] {
            let bytes = try Fixtures.bytes(name)
            XCTAssertThrowsError(try ImageDecoder(bytes, options: DecodeOptions(deadline: past)), name) { error in
                XCTAssertEqual((error as? CodecError)?.code, .timeout, "\(name): \(error)")
                XCTAssertTrue((error as? CodecError)?.message.contains("time limit") == true, "\(name): \(error)")
            }
            XCTAssertGreaterThan(try ImageCodec.readInfo(bytes).width, 0, name)
            XCTAssertNoThrow(try ImageDecoder(bytes, options: DecodeOptions(deadline: later)), name)
        }
    }

    /// 10-bit HEVC (x265 encodes it fine) comes out of a PNG output at 16 bits.
    func testTenBitIsKeptAsSixteen() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 64, height: 48), "in.png", in: folder, bitDepth: 16)
        try FormatTools.run(FormatTools.vips, ["heifsave", png, folder.file("deep.heic"), "--bitdepth", "10", "--Q", "90"])
        let input = try folder.bytes("deep.heic")
        XCTAssertEqual(try ImageCodec.readInfo(input).bitDepth, 10)
        let out = try render(input, options: .init(format: .png))
        XCTAssertEqual(pngHeader(out.bytes).depth, 16)
        XCTAssertGreaterThan(psnr(try ImageCodec.decode(out.bytes).image, try FormatTools.decode(png).image), 35)
    }

    /// An Adobe RGB profile travels into the HEIC (heif-enc copies the PNG's) and is converted
    /// to sRGB as the PNG's own is.
    func testICCProfileIsConvertedToSRGB() throws {
        try FormatTools.assertProfileIsConvertedToSRGB(named: "in.heic", minimumPSNR: 35) { png, heic in
            try FormatTools.run(FormatTools.heifEnc, ["-q", "95", png, "-o", heic])
        }
    }

    /// An nclx description with Display P3 primaries is converted: greys stay grey, colours
    /// come out more saturated in sRGB. (heif-enc 1.15 ignores its --colour_primaries, so the
    /// colr box it writes into an AVIF is patched: primaries 12, transfer 13, the same size.)
    func testDisplayP3NCLXIsConverted() throws {
        let folder = TemporaryFolder()
        let picture = Image(width: 32, height: 16) { x, _ in x < 16 ? Pixel(0.5, 0.5, 0.5, 1) : Pixel(0.6, 0.35, 0.3, 1) }
        let png = try FormatTools.png(picture, "in.png", in: folder)
        try FormatTools.run(FormatTools.heifEnc, ["-A", "-q", "95", png, "-o", folder.file("in.avif")])
        var avif = try folder.bytes("in.avif")
        let colr = Array("colrnclx".utf8)
        let at = try XCTUnwrap((0..<(avif.count - colr.count)).first { Array(avif[$0..<$0 + colr.count]) == colr })
        avif.replaceSubrange((at + 8)..<(at + 12), with: [0, 12, 0, 13])
        let plain = try render(try folder.bytes("in.avif"), options: .init(format: .png))
        XCTAssertNil(plain.colorConvertedFrom, "unspecified primaries are taken as sRGB")
        let out = try render(avif, options: .init(format: .png))
        XCTAssertEqual(out.colorConvertedFrom, "nclx Display P3")
        let image = try ImageCodec.decode(out.bytes).image, before = try ImageCodec.decode(plain.bytes).image
        let grey = image[4, 8], colour = image[24, 8], stored = before[24, 8]
        XCTAssertEqual(grey[0], before[4, 8][0], accuracy: 1.5 / 255)
        XCTAssertEqual(grey[2], before[4, 8][2], accuracy: 1.5 / 255)
        XCTAssertGreaterThan(colour[0], stored[0] + 3 / 255, "P3 red is redder than sRGB's: \(colour) vs \(stored)")
        XCTAssertLessThan(colour[2], stored[2] - 1 / 255, "\(colour) vs \(stored)")
    }

    /// AVIF out: rows left as stored keep their EXIF orientation as irot/imir, which libheif
    /// (darkroom's reader, and vips') applies: the picture shows upright, as `vips autorot`
    /// turns the source JPEG, for every orientation.
    func testOrientationTravelsAsIrotImir() throws {
        let folder = TemporaryFolder()
        let clean = try ImageCodec.encode(FormatTools.picture(width: 40, height: 24), options: .init(format: .jpeg, quality: 95))
        for orientation in 2...8 {
            let jpeg = Splice.jpeg(clean, exif: Splice.exifOrientation(orientation))
            var options = EncodeOptions(format: .avif, quality: 90)
            options.metadata = ImageMetadata.read(from: jpeg)
            let out = try render(jpeg, options: options, autoOrient: false)
            let (shown, info) = try ImageCodec.decode(out.bytes)
            XCTAssertEqual(info.orientation, 1)
            XCTAssertTrue(info.orientedByDecoder)
            let upright = try ImageCodec.decode(try Vips.run(jpeg, name: "in.jpg", ["autorot", "$IN", "$OUT"])).image
            XCTAssertEqual(shown.size, upright.size, "orientation \(orientation)")
            XCTAssertGreaterThan(psnr(shown, upright), 30, "orientation \(orientation)")
            _ = folder
        }
    }

    func testAVIFOutputQualitySpeedAndAlpha() throws {
        let folder = TemporaryFolder()
        let input = try ImageCodec.encode(FormatTools.picture(width: 96, height: 64, alpha: true), options: .init(format: .png))
        var sizes = [Int: Int]()
        for quality in [30, 80] {
            var options = EncodeOptions(format: .avif, quality: quality)
            options.speed = 8
            let out = try render(input, options: options)
            sizes[quality] = out.bytes.count
            let path = try ReferenceTool.file(out.bytes, named: "q\(quality).avif", in: folder)
            let header = try FormatTools.run(FormatTools.vips, ["copy", path, folder.file("q\(quality).png")])
            _ = header
            let back = try FormatTools.decode(folder.file("q\(quality).png")).image
            XCTAssertFalse(back.isOpaque, "alpha kept")
            XCTAssertGreaterThan(psnr(back, try ImageCodec.decode(input).image), quality == 80 ? 35 : 25)
            let info = try ImageCodec.readInfo(out.bytes)
            XCTAssertEqual(info.format, .avif)
            XCTAssertEqual(info.bitDepth, 8)
        }
        XCTAssertLessThan(sizes[30]!, sizes[80]!, "\(sizes)")
    }
}
