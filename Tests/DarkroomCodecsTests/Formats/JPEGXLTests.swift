import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// JPEG XL in (lossy, lossless, alpha, 16-bit, orientation, container and bare codestream) against
/// djxl and vips' jxlload, and out (quality, distance, lossless, 16-bit, alpha) read back by djxl;
/// `lossless_jpeg` against djxl's JPEG reconstruction, byte for byte.
final class JPEGXLTests: XCTestCase {
    static let cjxl = ("cjxl", "libjxl-tools")
    static let djxl = ("djxl", "libjxl-tools")

    /// libjxl's tools print their progress on stderr; only a failure matters.
    private func cjxl(_ arguments: [String]) throws { try FormatTools.run(Self.cjxl, arguments) }
    private func djxl(_ input: String, _ output: String, _ extra: [String] = []) throws {
        try FormatTools.run(Self.djxl, [input, output] + extra)
    }

    /// Lossy (XYB, distance 1 and 3) and lossless files, with and without alpha, decode as djxl
    /// decodes them to PNG, and as libvips' jxlload does: identical 8-bit samples (PSNR infinite;
    /// the same libjxl does the work, darkroom's thread runner and row copy around it).
    func testDecodesLikeDjxlAndVips() throws {
        let folder = TemporaryFolder()
        for alpha in [false, true] {
            let png = try FormatTools.png(FormatTools.picture(width: 300, height: 200, alpha: alpha), "in\(alpha).png", in: folder)
            for (name, options) in [("d1", ["-d", "1"]), ("d3", ["-d", "3", "-e", "4"]), ("lossless", ["-d", "0", "-e", "2"])] {
                let jxl = folder.file("\(name)-\(alpha).jxl")
                try cjxl([png, jxl] + options)
                try djxl(jxl, jxl + ".djxl.png")
                try FormatTools.run(FormatTools.vips, ["jxlload", jxl, jxl + ".vips.png"])
                let (image, info) = try FormatTools.decode(jxl)
                let label = "\(name), alpha \(alpha)"
                XCTAssertEqual(info.format, .jxl, label)
                XCTAssertEqual(info.hasAlpha, alpha, label)
                XCTAssertEqual(Size(width: info.width, height: info.height), Size(width: 300, height: 200), label)
                XCTAssertEqual(maxDifference(image, try FormatTools.decode(jxl + ".djxl.png").image), 0, label)
                XCTAssertEqual(maxDifference(image, try FormatTools.decode(jxl + ".vips.png").image), 0, label)
                let original = try FormatTools.decode(png).image
                if name == "lossless" { XCTAssertEqual(maxDifference(image, original), 0, label) } else {
                    XCTAssertGreaterThan(psnr(image, original), name == "d1" ? 38 : 30, label)
                }
            }
        }
    }

    /// A 16-bit lossless file comes out 16-bit: a PNG output of it holds 16-bit samples equal
    /// to vips' jxlload and djxl's (RGB: djxl 0.7 writes no PNG of cjxl's 16-bit RGBA, whose
    /// alpha it stores at fewer bits) and to the source (with alpha within 60 dB: cjxl's alpha
    /// holds fewer bits).
    func testSixteenBitIsKeptAsSixteen() throws {
        let folder = TemporaryFolder()
        for alpha in [false, true] {
            let png = try FormatTools.png(FormatTools.picture(width: 64, height: 48, alpha: alpha), "in\(alpha).png", in: folder, bitDepth: 16)
            let jxl = folder.file("deep\(alpha).jxl")
            try cjxl([png, jxl, "-d", "0", "-e", "2"])
            let input = try folder.bytes("deep\(alpha).jxl")
            XCTAssertEqual(try ImageCodec.readInfo(input).bitDepth, 16)
            let out = try render(input, options: .init(format: .png))
            XCTAssertEqual(pngHeader(out.bytes).depth, 16)
            let back = try ImageCodec.decode(out.bytes).image
            try FormatTools.run(FormatTools.vips, ["jxlload", jxl, jxl + ".vips.png"])
            XCTAssertEqual(maxDifference(back, try FormatTools.decode(jxl + ".vips.png").image), 0, "alpha \(alpha)")
            let source = try FormatTools.decode(png).image
            if alpha { XCTAssertGreaterThan(psnr(back, source), 60) } else {
                XCTAssertEqual(maxDifference(back, source), 0)
                try djxl(jxl, jxl + ".png")
                XCTAssertEqual(pngHeader(try folder.bytes("deepfalse.jxl.png")).depth, 16)
                XCTAssertEqual(maxDifference(back, try FormatTools.decode(jxl + ".png").image), 0)
            }
        }
    }

    /// The codestream's orientation (cjxl takes it from the JPEG's EXIF) is the header's
    /// orientation: the rows come as stored and darkroom turns them upright, so the output shows
    /// the picture as djxl (which applies it) does.
    func testOrientationComesFromTheCodestream() throws {
        let folder = TemporaryFolder()
        let jpeg = try ReferenceTool.file(try Fixtures.bytes("orientation6.jpg"), named: "o6.jpg", in: folder)
        try cjxl([jpeg, folder.file("o6.jxl"), "--lossless_jpeg=0", "-d", "0.5"])
        try djxl(folder.file("o6.jxl"), folder.file("o6.png"))
        let input = try folder.bytes("o6.jxl")
        let info = try ImageCodec.readInfo(input)
        XCTAssertEqual(info.orientation, 6)
        let reference = try FormatTools.decode(folder.file("o6.png")).image
        let out = try render(input, options: .init(format: .png))
        let upright = try ImageCodec.decode(out.bytes).image
        XCTAssertEqual(upright.size, reference.size)
        XCTAssertEqual(upright.size, Size(width: info.height, height: info.width))
        XCTAssertEqual(maxDifference(upright, reference), 0)
    }

    /// darkroom's JPEG XL at quality 90 (distance 1, cjxl's default) and at distance 3, read back
    /// by djxl: within 38 and 32 dB of the source; lossless, 8- and 16-bit with alpha, exact.
    func testEncodesWhatDjxlReadsBack() throws {
        let folder = TemporaryFolder()
        let picture = FormatTools.picture(width: 200, height: 150, alpha: true)
        let input8 = try ImageCodec.encode(picture, options: .init(format: .png))
        let input16 = try ImageCodec.encode(picture, options: .init(format: .png, bitDepth: 16))
        func back(_ options: EncodeOptions, from input: [UInt8], _ name: String) throws -> Image {
            let out = try render(input, options: options)
            XCTAssertEqual(ImageFormat.detect(out.bytes), .jxl, name)
            let path = try ReferenceTool.file(out.bytes, named: name + ".jxl", in: folder)
            try djxl(path, folder.file(name + ".png"))
            return try FormatTools.decode(folder.file(name + ".png")).image
        }
        let source = try ImageCodec.decode(input8).image
        XCTAssertGreaterThan(psnr(try back(.init(format: .jxl), from: input8, "q90"), source), 38)
        var distance3 = EncodeOptions(format: .jxl)
        distance3.encoding[.distance] = .number(3)
        let far = try back(distance3, from: input8, "d3")
        XCTAssertGreaterThan(psnr(far, source), 32)
        XCTAssertLessThan(try folder.bytes("d3.jxl").count, try folder.bytes("q90.jxl").count, "a larger distance is a smaller file")
        var lossless = EncodeOptions(format: .jxl)
        lossless.lossless = true
        XCTAssertEqual(maxDifference(try back(lossless, from: input8, "lossless8"), source), 0)
        let deep = try back(lossless, from: input16, "lossless16")
        XCTAssertEqual(pngHeader(try folder.bytes("lossless16.png")).depth, 16)
        XCTAssertEqual(maxDifference(deep, try ImageCodec.decode(input16).image), 0)
    }

    /// Quality maps to distance as cjxl maps it, and effort is cjxl's: darkroom's file of a PNG at
    /// quality 75, effort 5 holds the picture `cjxl -q 75 -e 5` writes (djxl decodes both to the
    /// same samples; the files differ only in a few header bits), at its size within 1 %.
    func testQualityAndEffortAreCjxls() throws {
        let folder = TemporaryFolder()
        let input = try ImageCodec.encode(FormatTools.picture(width: 120, height: 90), options: .init(format: .png))
        let png = try ReferenceTool.file(input, named: "in.png", in: folder)
        try cjxl([png, folder.file("cjxl.jxl"), "-q", "75", "-e", "5"])
        var options = EncodeOptions(format: .jxl, quality: 75)
        options.encoding[.effort] = .integer(5)
        XCTAssertEqual(options.jxlDistance, 2.35, accuracy: 1e-9)
        let ours = try ReferenceTool.file(try render(input, options: options).bytes, named: "ours.jxl", in: folder)
        try djxl(ours, folder.file("ours.png"))
        try djxl(folder.file("cjxl.jxl"), folder.file("cjxl.png"))
        XCTAssertEqual(maxDifference(try FormatTools.decode(folder.file("ours.png")).image,
                                     try FormatTools.decode(folder.file("cjxl.png")).image), 0)
        let (a, b) = (try folder.bytes("ours.jxl").count, try folder.bytes("cjxl.jxl").count)
        XCTAssertEqual(Double(a), Double(b), accuracy: Double(b) / 100, "\(a) vs \(b) bytes")
    }

    /// `lossless_jpeg`: the JPEG's coefficients recoded, not its pixels: djxl rebuilds the input
    /// byte for byte, and the file is smaller than the JPEG. The metadata and profile are the
    /// JPEG's own (the rebuilt file is the input).
    func testLosslessJPEGRebuildsTheJPEGByteForByte() throws {
        let folder = TemporaryFolder()
        let jpeg = folder.file("photo.jpg")
        try FormatTools.run(FormatTools.convert, ["-seed", "5", "-size", "320x240", "plasma:fractal", "-quality", "92", jpeg])
        try FormatTools.run(ReferenceTool.exiftool, ["-q", "-overwrite_original", "-Artist=Ansel", "-Orientation#=6", jpeg])
        let input = try folder.bytes("photo.jpg")
        var options = EncodeOptions(format: .jxl)
        options.encoding[.losslessJPEG] = .boolean(true)
        let out = try render(input, options: options)
        XCTAssertEqual(ImageFormat.detect(out.bytes), .jxl)
        XCTAssertLessThan(out.bytes.count, input.count * 9 / 10, "\(out.bytes.count) of \(input.count) bytes")
        let path = try ReferenceTool.file(out.bytes, named: "photo.jxl", in: folder)
        try djxl(path, folder.file("rebuilt.jpg"))
        XCTAssertEqual(try folder.bytes("rebuilt.jpg"), input)
        // The JPEG XL's own pixels are the JPEG's (libjxl's float IDCT against libjpeg's integer
        // one: within 40 dB), its codestream orientation the EXIF's.
        XCTAssertEqual(try ImageCodec.readInfo(out.bytes).orientation, 6)
        XCTAssertGreaterThan(psnr(try ImageCodec.decode(out.bytes).image, try ImageCodec.decode(input).image), 40)
    }

    /// `lossless_jpeg` on anything but a JPEG, or after filters, is an error naming why; nothing is written.
    func testLosslessJPEGRefusesOtherInputsAndChains() throws {
        var options = EncodeOptions(format: .jxl)
        options.encoding[.losslessJPEG] = .boolean(true)
        let png = try ImageCodec.encode(FormatTools.picture(width: 20, height: 10), options: .init(format: .png))
        XCTAssertThrowsError(try render(png, options: options)) { error in
            XCTAssertEqual((error as? CodecError)?.code, .unsupported)
            XCTAssertTrue("\(error)".contains("JPEG inputs only"), "\(error)")
        }
        let jpeg = try Fixtures.bytes("noise.jpg")
        XCTAssertThrowsError(try render(jpeg, "resize width=10", options: options)) { error in
            XCTAssertEqual((error as? CodecError)?.code, .chainFailed)
            XCTAssertTrue("\(error)".contains("chain must be empty"), "\(error)")
        }
    }

    /// The EXIF and XMP of the container's Exif and xml boxes are read (here Brotli-compressed
    /// "brob" boxes: cjxl's transcoding of a tagged JPEG), and written into darkroom's own JPEG
    /// XL, where exiftool finds them.
    func testEXIFAndXMPBoxesAreReadAndWritten() throws {
        let folder = TemporaryFolder()
        let jpeg = try ReferenceTool.file(try Fixtures.bytes("noise.jpg"), named: "in.jpg", in: folder)
        try FormatTools.run(ReferenceTool.exiftool, ["-q", "-overwrite_original", "-EXIF:Artist=Ansel", "-XMP-dc:Creator=Imogen", jpeg])
        try cjxl([jpeg, folder.file("tagged.jxl")])
        let (_, metadata) = try ImageCodec.readHeader(try folder.bytes("tagged.jxl"))
        XCTAssertEqual(metadata.exifText("Artist"), "Ansel")
        XCTAssertTrue(String(decoding: metadata.xmp ?? [], as: UTF8.self).contains("Imogen"))
        var options = EncodeOptions(format: .jxl)
        options.metadata = metadata
        let out = try render(try folder.bytes("tagged.jxl"), options: options)
        let written = try ReferenceTool.file(out.bytes, named: "out.jxl", in: folder)
        let tags = try FormatTools.run(ReferenceTool.exiftool, ["-s", "-Artist", "-Creator", written])
        XCTAssertTrue(tags.contains("Ansel"), tags)
        XCTAssertTrue(tags.contains("Imogen"), tags)
    }

    /// A profile other than sRGB travels through a JPEG XL (cjxl keeps the PNG's ICC) and is
    /// converted to sRGB as the PNG's own is.
    func testICCProfileIsConvertedToSRGB() throws {
        try FormatTools.assertProfileIsConvertedToSRGB(named: "in.jxl", minimumPSNR: 45) { png, jxl in
            try cjxl([png, jxl, "-d", "0", "-e", "2"])
        }
    }

    /// A grey file is read as grey, as vips' jxlload reads it; an animation (cjxl's lossless copy
    /// of a two-frame GIF) gives its first frame, exactly the GIF's first frame as vips' gifload
    /// composes it (vips 8.14's jxlload gives a frame with the transparent pixels filled in).
    func testGreyAndAnimatedFilesDecodeAsTheReferencesDo() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 80, height: 60), "in.png", in: folder)
        try FormatTools.run(FormatTools.vips, ["colourspace", png, folder.file("grey.png"), "b-w"])
        try cjxl([folder.file("grey.png"), folder.file("grey.jxl"), "-d", "1"])
        try FormatTools.run(FormatTools.vips, ["jxlload", folder.file("grey.jxl"), folder.file("grey.vips.png")])
        let gif = try ReferenceTool.file(try Fixtures.bytes("animated.gif"), named: "anim.gif", in: folder)
        try cjxl([gif, folder.file("anim.jxl"), "-d", "0"])
        try FormatTools.run(FormatTools.vips, ["copy", gif + "[page=0]", folder.file("anim.first.png")])
        for (name, reference, space) in [("grey", "grey.vips.png", "gray"), ("anim", "anim.first.png", "rgb")] {
            let (image, info) = try FormatTools.decode(folder.file(name + ".jxl"))
            XCTAssertEqual(info.colorSpace, space, name)
            XCTAssertEqual(maxDifference(image, try FormatTools.decode(folder.file(reference)).image), 0, name)
        }
    }

    /// The decoded frame is handed out from a crop as from the whole.
    func testCropOnLoadMatchesAWholeDecode() throws {
        try FormatTools.assertCropOnLoadMatchesAWholeDecode(try Fixtures.bytes("noise.jxl"), Rect(x: 5, y: 9, width: 20, height: 11))
    }

    /// A passed deadline stops the decode as a timeout (libjxl's parallel stages stop at it); a
    /// deadline to come decodes as usual. The header is still read.
    func testThePassedDeadlineStopsAJPEGXLDecodeAsATimeout() throws {
        let past = Deadline(nanoseconds: Deadline.now() - 1)
        let later = Deadline(nanoseconds: Deadline.now() + 600_000_000_000)
        for name in ["noise.jxl", "noise_transcoded.jxl"] {
            let bytes = try Fixtures.bytes(name)
            XCTAssertThrowsError(try ImageDecoder(bytes, options: DecodeOptions(deadline: past)), name) { error in
                XCTAssertEqual((error as? CodecError)?.code, .timeout, "\(name): \(error)")
            }
            XCTAssertGreaterThan(try ImageCodec.readInfo(bytes).width, 0, name)
            XCTAssertNoThrow(try ImageDecoder(bytes, options: DecodeOptions(deadline: later)), name)
        }
    }

    /// A Brotli-compressed Exif box that inflates to 40 MB (a "Brotli bomb") is dropped past
    /// 16 MB, read through a small buffer; the image decodes.
    func testAnExifBoxTooLargeToKeepIsDropped() throws {
        let bytes = try Fixtures.bytes("exif_brotli_bomb.jxl")
        let (_, metadata) = try ImageCodec.readHeader(bytes)
        XCTAssertNil(metadata.exif)
        XCTAssertEqual(maxDifference(try ImageCodec.decode(bytes).image, try ImageCodec.decode(try Fixtures.bytes("noise_transcoded.jxl")).image), 0)
    }

    /// Both signatures are sniffed by content: the bare codestream (FF 0A) and the container.
    func testBothSignaturesAreJPEGXL() throws {
        XCTAssertEqual(ImageFormat.detect([0xFF, 0x0A, 0x00]), .jxl)
        XCTAssertEqual(ImageFormat.detect([0, 0, 0, 12] + Array("JXL ".utf8) + [0x0D, 0x0A, 0x87, 0x0A, 0, 0]), .jxl)
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("noise.jxl")), .jxl)
        XCTAssertEqual(ImageFormat.detect(try Fixtures.bytes("noise_transcoded.jxl")), .jxl)
        XCTAssertNil(ImageFormat.detect([0, 0, 0, 12] + Array("JXL ".utf8) + [0x0D, 0x0A, 0x87]))
        XCTAssertEqual(ImageFormat.fromExtension(".JXL"), .jxl)
    }
}
