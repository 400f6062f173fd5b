import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// TIFF output: the compression, depth and layout asked for, as tiffinfo reads them, and pixels
/// vips reads back as written.
final class TIFFOutputTests: XCTestCase {
    private func tiffinfo(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> String {
        try FormatTools.run(FormatTools.tiffinfo, [try ReferenceTool.file(bytes, named: "out.tif", in: folder)])
    }

    func testCompressionDepthAndLayoutAsConfigured() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 300, height: 270, alpha: true), "in.png", in: folder, bitDepth: 16)
        let input = try folder.bytes("in.png")
        let source = try FormatTools.decode(png).image
        let cases: [(EncodeOptions.TIFFCompression, Int, Bool, String)] = [
            (.none, 16, false, "None"), (.lzw, 16, true, "LZW"), (.deflate, 8, false, "AdobeDeflate"), (.lzw, 8, true, "LZW"),
        ]
        for (compression, depth, tiled, scheme) in cases {
            var options = EncodeOptions(format: .tiff, bitDepth: depth)
            options.tiffCompression = compression
            options.tiled = tiled
            let out = try render(input, options: options)
            let what = "\(compression) \(depth)-bit \(tiled ? "tiled" : "striped")"
            let info = try tiffinfo(out.bytes, in: folder)
            XCTAssertTrue(info.contains("Compression Scheme: \(scheme)"), "\(what): \(info)")
            XCTAssertTrue(info.contains("Bits/Sample: \(depth)"), "\(what): \(info)")
            XCTAssertTrue(info.contains("Extra Samples: 1<unassoc-alpha>"), "\(what): \(info)")
            XCTAssertEqual(info.contains("Tile Width: 256 Tile Length: 256"), tiled, "\(what): \(info)")
            XCTAssertEqual(info.contains("Rows/Strip:"), !tiled, "\(what): \(info)")
            let written = try ReferenceTool.file(out.bytes, named: "check.tif", in: folder)
            try FormatTools.run(FormatTools.vips, ["copy", written, folder.file("back.png")])
            let back = try FormatTools.decode(folder.file("back.png")).image
            XCTAssertLessThanOrEqual(maxDifference(back, source), depth == 16 ? 0.01 : 1.0, what)
        }
    }

    /// JPEG-in-TIFF: YCbCr, 8-bit, close to the source.
    func testJPEGCompression() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 120, height: 90), "in.png", in: folder)
        var options = EncodeOptions(format: .tiff, quality: 90)
        options.tiffCompression = .jpeg
        let out = try render(try folder.bytes("in.png"), options: options)
        let info = try tiffinfo(out.bytes, in: folder)
        XCTAssertTrue(info.contains("Compression Scheme: JPEG"), info)
        XCTAssertTrue(info.contains("Bits/Sample: 8"), info)
        let written = try ReferenceTool.file(out.bytes, named: "check.tif", in: folder)
        try FormatTools.run(FormatTools.vips, ["copy", written, folder.file("back.png")])
        XCTAssertGreaterThan(psnr(try FormatTools.decode(folder.file("back.png")).image, try FormatTools.decode(png).image), 30)
    }

    /// A grey output is one channel; a 16-bit source stays 16-bit unless asked otherwise; the
    /// ICC profile goes into the ICC tag.
    func testGreyDepthFollowsTheSourceAndProfileIsTagged() throws {
        let folder = TemporaryFolder()
        let input = try Fixtures.bytes("gray16.png")
        let out = try render(input, options: .init(format: .tiff, icc: ICCProfile.sRGBGrey))
        let info = try tiffinfo(out.bytes, in: folder)
        XCTAssertTrue(info.contains("Samples/Pixel: 1"), info)
        XCTAssertTrue(info.contains("Bits/Sample: 16"), info)
        XCTAssertTrue(info.contains("ICC Profile: <present>"), info)
        let (back, header) = try ImageCodec.decode(out.bytes)
        XCTAssertEqual(header.bitDepth, 16)
        XCTAssertEqual(header.icc?.bytes, ICCProfile.sRGBGrey)
        XCTAssertEqual(maxDifference(back, try ImageCodec.decode(input).image), 0)
    }
}
