import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// Colour management against libvips' `icc_transform --embedded` (itself Little CMS): embedded
/// profiles converted to sRGB, outputs tagged, untagged inputs left alone, bad profiles ignored
/// with a warning. The profiles are the committed fixtures (Fixtures/make_icc_fixtures.py).
final class ColorManagementTests: XCTestCase {
    /// 48×32 of saturated and mixed colours: where Adobe RGB and ProPhoto differ most from sRGB.
    private let picture = Image(width: 48, height: 32) { x, y in
        let u = Float(x) / 47, v = Float(y) / 31
        return Pixel(u, v, 1 - u * v, 1)
    }

    private func tagged(_ profile: [UInt8], format: ImageFormat) throws -> [UInt8] {
        try ImageCodec.encode(picture, options: EncodeOptions(format: format, quality: 95, icc: profile))
    }

    private func render(_ input: [UInt8], color: ColorOptions = ColorOptions(), format: ImageFormat = .png) throws
        -> (image: Image, output: ChainRenderer.Output) {
        let plan = ChainRenderer.plan(CompiledChain(stages: []), header: try ImageCodec.readInfo(input), color: color)
        let output = try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: format), limits: DecodeLimits())
        return (try ImageCodec.decode(output.bytes).image, output)
    }

    private func vipsToSRGB(_ input: [UInt8], intent: ColorOptions.Intent, depth: Int = 8) throws -> Image {
        try ImageCodec.decode(Vips.run(input, name: "input", ["icc_transform", "$IN", "$OUT", "srgb", "--embedded",
                                                                "--intent", intent.rawValue, "--depth", "\(depth)"])).image
    }

    func testRGBProfilesConvertToSRGBAsVipsDoes() throws {
        for name in ["adobe_rgb", "prophoto"] {
            let profile = try Fixtures.bytes("\(name).icc")
            for format in [ImageFormat.jpeg, .png] {
                for intent in ColorOptions.Intent.allCases {
                    let input = try tagged(profile, format: format)
                    let (ours, output) = try render(input, color: ColorOptions(intent: intent))
                    let reference = try vipsToSRGB(input, intent: intent)
                    let what = "\(name) \(format) \(intent)"
                    XCTAssertGreaterThanOrEqual(psnr(ours, reference), 40, what)
                    // The comparison has teeth: the samples as stored are far from the reference.
                    XCTAssertLessThan(psnr(try ImageCodec.decode(input).image, reference), 35, what)
                    XCTAssertEqual(output.colorConvertedFrom, ICCProfile(profile).description, what)
                    XCTAssertEqual(output.warnings, [], what)
                    let written = try ImageCodec.readInfo(output.bytes).icc
                    XCTAssertEqual(written?.bytes, ICCProfile.sRGB, "\(what): the output is tagged sRGB")
                    XCTAssertEqual(written?.isSRGB, true, what)
                }
            }
        }
    }

    /// Matrix-shaper profiles give one result for every intent; this one (a LUT profile made at
    /// test time with Little CMS, Fixtures/make_lut_profile.py) has different perceptual and
    /// relative colorimetric tables, so each intent is checked against Little CMS's own `jpgicc`.
    func testEachIntentUsesItsOwnTableAsLittleCMSDoes() throws {
        let folder = TemporaryFolder()
        let profilePath = folder.file("lut.icc")
        _ = try ReferenceTool.output(("python3", "python3"), [Fixtures.path("make_lut_profile.py"), profilePath])
        let input = try tagged([UInt8](try Data(contentsOf: URL(fileURLWithPath: profilePath))), format: .jpeg)
        let inputPath = try ReferenceTool.file(input, named: "in.jpg", in: folder)
        var ours = [ColorOptions.Intent: Image]()
        for (intent, flag) in [(ColorOptions.Intent.perceptual, "-t0"), (.relative, "-t1")] {
            _ = try ReferenceTool.output(ReferenceTool.jpgicc, [flag, "-q100", inputPath, folder.file("\(flag).jpg")])
            let reference = try ImageCodec.decode(try folder.bytes("\(flag).jpg")).image
            ours[intent] = try render(input, color: ColorOptions(intent: intent)).image
            XCTAssertGreaterThanOrEqual(psnr(try XCTUnwrap(ours[intent]), reference), 38, "\(intent) against jpgicc \(flag)")
        }
        // The tables differ by half the chroma and 40° of hue: the two results must be far apart.
        XCTAssertLessThan(psnr(try XCTUnwrap(ours[.perceptual]), try XCTUnwrap(ours[.relative])), 25)
    }

    /// Photoshop's CMYK JPEG (inverted, Adobe marker) through its profile.
    func testCMYKJPEGConvertsThroughItsProfile() throws {
        let input = try Fixtures.bytes("cmyk_press.jpg")
        let header = try ImageCodec.readInfo(input)
        XCTAssertEqual(header.colorSpace, "cmyk")
        XCTAssertEqual(header.icc?.description, "darkroom test CMYK press")
        let (ours, output) = try render(input)
        let reference = try vipsToSRGB(input, intent: .perceptual)
        XCTAssertGreaterThanOrEqual(psnr(ours, reference), 35)
        XCTAssertLessThan(psnr(try ImageCodec.decode(input).image, reference), 30, "naive CMYK is far from the profile's rendition")
        XCTAssertEqual(output.colorConvertedFrom, "darkroom test CMYK press")
        // Even with color: keep, CMYK is converted: the output is RGB.
        XCTAssertEqual(try render(input, color: ColorOptions(target: .keep)).image.pixels, ours.pixels)
    }

    /// A CMYK JPEG without a profile goes through the assumed press profile (FOGRA39), as Little
    /// CMS's `jpgicc -i` does with that profile, not through the naive formula (18 dB from a
    /// press rendition); the report names the profile and the output is tagged sRGB.
    func testUntaggedCMYKConvertsThroughTheAssumedPressProfile() throws {
        let folder = TemporaryFolder()
        let input = try Fixtures.bytes("cmyk.jpg")
        XCTAssertNil(try ImageCodec.readInfo(input).icc, "the fixture carries no profile")
        let assumed = ICCProfile.assumedCMYK
        XCTAssertEqual(assumed.colorSpace, "cmyk")
        XCTAssertNil(assumed.problem)
        let profilePath = try ReferenceTool.file(assumed.bytes, named: "fogra39.icc", in: folder)
        let inputPath = try ReferenceTool.file(input, named: "in.jpg", in: folder)
        for (intent, flag) in [(ColorOptions.Intent.perceptual, "-t0"), (.relative, "-t1")] {
            _ = try ReferenceTool.output(ReferenceTool.jpgicc, [flag, "-q100", "-i", profilePath, inputPath, folder.file("\(flag).jpg")])
            let reference = try ImageCodec.decode(try folder.bytes("\(flag).jpg")).image
            let (ours, output) = try render(input, color: ColorOptions(intent: intent))
            XCTAssertGreaterThanOrEqual(psnr(ours, reference), 38, "\(intent) against jpgicc \(flag) -i FOGRA39")
            XCTAssertLessThan(psnr(try ImageCodec.decode(input).image, reference), 30, "the naive formula is far from it")
            XCTAssertEqual(output.colorConvertedFrom, "darkroom FOGRA39 (assumed for untagged CMYK)")
            XCTAssertEqual(try ImageCodec.readInfo(output.bytes).icc?.bytes, ICCProfile.sRGB)
            XCTAssertEqual(output.warnings, [])
        }
    }

    /// A 16-bit PNG is converted at 16 bits: close to vips' 16-bit result, and off the 8-bit grid.
    func testSixteenBitPNGConvertsAtSixteenBits() throws {
        let input = try Fixtures.bytes("prophoto16.png")
        let ours = try ImageCodec.decode(input, convertToSRGB: .perceptual).image
        let reference = try vipsToSRGB(input, intent: .perceptual, depth: 16)
        XCTAssertGreaterThanOrEqual(psnr(ours, reference), 60)
        let offGrid = ours.pixels.filter { p in (0..<3).contains { c in abs(p[c] * 255 - (p[c] * 255).rounded()) > 0.01 } }
        XCTAssertGreaterThan(offGrid.count, ours.pixels.count / 2, "the conversion kept 16-bit precision")
    }

    /// Grey profiles (here linear light) convert grey JPEGs and 16-bit grey PNGs to sRGB greys.
    func testGreyProfilesConvertAsVipsDoes() throws {
        for (name, depth) in [("gray_linear.jpg", 8), ("gray16_linear.png", 16)] {
            let input = try Fixtures.bytes(name)
            XCTAssertEqual(try ImageCodec.readInfo(input).icc?.colorSpace, "gray")
            let ours = try ImageCodec.decode(input, convertToSRGB: .perceptual).image
            let reference = try vipsToSRGB(input, intent: .perceptual, depth: depth)
            XCTAssertGreaterThanOrEqual(psnr(ours, reference), depth == 16 ? 60 : 40, name)
            XCTAssertLessThan(psnr(try ImageCodec.decode(input).image, reference), 30, "\(name): linear grey differs from sRGB")
        }
    }

    /// Alpha passes through the conversion untouched.
    func testTransparentImagesKeepTheirAlpha() throws {
        let translucent = Image(width: 48, height: 32) { x, y in
            Pixel(Float(x) / 47, Float(y) / 31, 0.2, Float(x + 5 * y) / 202).premultiplied
        }
        let input = try ImageCodec.encode(translucent, options: EncodeOptions(format: .png, icc: try Fixtures.bytes("adobe_rgb.icc")))
        let (ours, _) = try render(input)
        let reference = try vipsToSRGB(input, intent: .perceptual)
        XCTAssertEqual(ours.pixels.map { $0[3] }, try ImageCodec.decode(input).image.pixels.map { $0[3] })
        XCTAssertGreaterThanOrEqual(psnr(ours, reference), 40)
    }

    func testUntaggedInputIsNeitherConvertedNorTagged() throws {
        for format in [ImageFormat.jpeg, .png] {
            let input = try ImageCodec.encode(picture, options: EncodeOptions(format: format, quality: 95))
            let (ours, output) = try render(input)
            XCTAssertEqual(ours.pixels, try ImageCodec.decode(input).image.pixels)
            XCTAssertNil(output.colorConvertedFrom)
            XCTAssertNil(try ImageCodec.readInfo(output.bytes).icc)
        }
    }

    /// An sRGB profile (Pillow's, not darkroom's) is recognised: no conversion, sRGB tag kept.
    func testSRGBTaggedInputIsNotConverted() throws {
        let (ours, output) = try render(try Fixtures.bytes("icc.jpg"))
        let (untagged, _) = try render(try Fixtures.bytes("rgb.jpg"))
        XCTAssertEqual(ours.pixels, untagged.pixels)
        XCTAssertNil(output.colorConvertedFrom)
        XCTAssertEqual(try ImageCodec.readInfo(output.bytes).icc?.bytes, ICCProfile.sRGB)
    }

    func testKeepLeavesThePixelsAndCarriesTheProfile() throws {
        let profile = try Fixtures.bytes("adobe_rgb.icc")
        for format in [ImageFormat.jpeg, .png] {
            let input = try tagged(profile, format: format)
            let (ours, output) = try render(input, color: ColorOptions(target: .keep), format: format)
            if format == .png { XCTAssertEqual(ours.pixels, try ImageCodec.decode(input).image.pixels) }
            XCTAssertNil(output.colorConvertedFrom)
            XCTAssertEqual(try ImageCodec.readInfo(output.bytes).icc?.bytes, profile, "\(format): the source profile is embedded")
        }
    }

    /// A corrupt profile never fails the file: the image is read as sRGB, with a warning.
    func testCorruptProfileIsIgnoredWithAWarning() throws {
        var profile = try Fixtures.bytes("adobe_rgb.icc")
        // The red primary's data no longer says what type it is: Little CMS cannot build a transform.
        let tags = (0..<Int(profile[131])).map { 132 + 12 * $0 }
        let red = try XCTUnwrap(tags.first { Array(profile[$0..<$0 + 4]) == Array("rXYZ".utf8) })
        let offset = profile[(red + 4)..<(red + 8)].reduce(0) { $0 << 8 | Int($1) }
        profile.replaceSubrange(offset..<offset + 4, with: Array("junk".utf8))
        for format in [ImageFormat.jpeg, .png] {
            let input = try tagged(profile, format: format)
            XCTAssertNotNil(try ImageCodec.readInfo(input).icc?.problem, "\(format)")
            try assertIgnoredWithWarning(input, "\(format)")
        }
    }

    /// A PNG whose iCCP libpng itself refuses (a tag count past the profile's end).
    func testProfileLibpngRefusesIsIgnoredWithAWarning() throws {
        var profile = try Fixtures.bytes("adobe_rgb.icc")
        profile.replaceSubrange(128..<132, with: [0, 0, 0xFF, 0xFF])
        let png = try ImageCodec.encode(picture, options: EncodeOptions(format: .png))
        let input = Splice.png(png, chunk: Splice.chunk("iCCP", Array("ICC profile".utf8) + [0, 0] + Splice.zlibStored(profile)))
        try assertIgnoredWithWarning(input, "libpng")
    }

    private func assertIgnoredWithWarning(_ input: [UInt8], _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (ours, output) = try render(input)
        XCTAssertEqual(ours.pixels, try ImageCodec.decode(input).image.pixels, "\(what): taken as sRGB", file: file, line: line)
        XCTAssertTrue(output.warnings.contains { $0.hasPrefix("ICC profile ignored (") }, "\(what): \(output.warnings)",
                      file: file, line: line)
        XCTAssertNil(output.colorConvertedFrom, what, file: file, line: line)
        XCTAssertNil(try ImageCodec.readInfo(output.bytes).icc, "\(what): an unusable profile is not passed on", file: file, line: line)
    }

    /// A readable profile for other data than the image's (CMYK on RGB) is ignored the same way.
    func testProfileForOtherDataIsIgnoredWithAWarning() throws {
        let input = try tagged(try Fixtures.bytes("cmyk_press.icc"), format: .jpeg)
        let (ours, output) = try render(input)
        XCTAssertEqual(ours.pixels, try ImageCodec.decode(input).image.pixels)
        XCTAssertEqual(output.warnings, ["ICC profile ignored (a CMYK profile on RGB data); colours taken as sRGB"])
    }

    /// Two problems in one file are both reported: stray bytes before the scan, and the profile.
    func testEveryForgivenProblemIsReportedNotOnlyTheFirst() throws {
        var input = try tagged(try Fixtures.bytes("cmyk_press.icc"), format: .jpeg)
        let sos = try XCTUnwrap((2..<input.count - 1).first { input[$0] == 0xFF && input[$0 + 1] == 0xDA })
        input.insert(contentsOf: [0x12, 0x34, 0x56], at: sos)
        let (_, output) = try render(input)
        XCTAssertEqual(output.warnings.count, 2, "\(output.warnings)")
        XCTAssertTrue(output.warnings.contains { $0.contains("extraneous bytes") }, "\(output.warnings)")
        XCTAssertTrue(output.warnings.contains("ICC profile ignored (a CMYK profile on RGB data); colours taken as sRGB"),
                      "\(output.warnings)")
    }
}
