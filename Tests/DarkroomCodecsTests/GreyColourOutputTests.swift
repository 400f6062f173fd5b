import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// Where colour management meets grey and metadata: a grey input with its own profile is
/// converted to sRGB and stays one channel, tagged with a grey profile (an RGB one cannot tag
/// one channel); a converted input's EXIF ColorSpace says sRGB. Read back by exiftool.
final class GreyColourOutputTests: XCTestCase {
    private func exif(_ bytes: [UInt8], _ ext: String, _ tags: [String]) throws -> [String: String] {
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(bytes, named: "out.\(ext)", in: folder)
        let json = try ReferenceTool.output(ReferenceTool.exiftool, ["-j", "-n"] + tags.map { "-" + $0 } + [path])
        let found = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first ?? [:]
        return found.reduce(into: [:]) { $0[$1.key] = "\($1.value)" }
    }

    func testGreyProfiledInputStaysGreyTaggedWithAGreyProfile() throws {
        let input = try Fixtures.bytes("gray_linear.jpg")
        // The formats that hold one channel; exiftool names the channel count differently in each.
        let channelTag: [ImageFormat: String] = [.jpeg: "ColorComponents", .png: "ColorType", .tiff: "SamplesPerPixel"]
        let oneChannel: [ImageFormat: String] = [.jpeg: "1", .png: "0", .tiff: "1"]
        for format in ImageFormat.allCases where format.holdsGrey {
            let out = try render(input, options: .init(format: format, quality: 95))
            XCTAssertEqual(out.colorConvertedFrom, "darkroom test linear grey", format.rawValue)
            let tags = try exif(out.bytes, format.fileExtension, ["ColorSpaceData", "ProfileDescription", channelTag[format]!])
            XCTAssertEqual(tags["ColorSpaceData"], "GRAY", "\(format): \(tags)")
            XCTAssertEqual(tags["ProfileDescription"], "Grey with the sRGB tone curve", "\(format): \(tags)")
            XCTAssertEqual(tags[channelTag[format]!], oneChannel[format], "one channel: \(tags)")
        }
    }

    /// WebP and AVIF are written RGB, so a grey picture is tagged with the RGB sRGB profile.
    func testGreyInputInRGBOnlyFormatsIsTaggedSRGB() throws {
        let input = try Fixtures.bytes("gray_linear.jpg")
        for format in [ImageFormat.webp, .avif] {
            let out = try render(input, options: .init(format: format, quality: 95))
            let tags = try exif(out.bytes, format.fileExtension, ["ColorSpaceData", "ProfileDescription"])
            XCTAssertEqual(tags["ColorSpaceData"]?.trimmingCharacters(in: .whitespaces), "RGB", "\(format): \(tags)")
            XCTAssertEqual(tags["ProfileDescription"], ICCProfile(ICCProfile.sRGB).description, "\(format): \(tags)")
        }
    }

    func testConvertedInputsEXIFSaysSRGB() throws {
        let folder = TemporaryFolder()
        let picture = Image(width: 16, height: 8) { x, _ in Pixel(Float(x) / 16, 0.4, 0.7, 1) }
        let path = try ReferenceTool.file(try ImageCodec.encode(picture, options: .init(format: .jpeg)), named: "in.jpg", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.exiftool, ["-q", "-overwrite_original", "-ExifIFD:ColorSpace#=65535",
                                                              "-ICC_Profile<=\(Fixtures.path("adobe_rgb.icc"))", path])
        let input = try folder.bytes("in.jpg")
        var options = EncodeOptions(format: .jpeg)
        options.metadata = ImageMetadata.read(from: input)
        let out = try render(input, options: options)
        XCTAssertEqual(out.colorConvertedFrom, "darkroom test Adobe RGB (1998)")
        XCTAssertEqual(try exif(out.bytes, "jpg", ["ColorSpace"])["ColorSpace"], "1")
        XCTAssertEqual(try exif(input, "jpg", ["ColorSpace"])["ColorSpace"], "65535", "the input said uncalibrated")
    }
}
