import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// TIFF input: strips and tiles, 8 and 16 bits, grey, alpha (both kinds), CMYK, palette,
/// the first page of several, the Orientation tag. Files are made by vips, ImageMagick and
/// libtiff's tools from PNGs darkroom wrote, and must decode to the PNG's own pixels.
final class TIFFInputTests: XCTestCase {
    func testStripsAndTilesAt8And16BitsDecodeToTheSourcePixels() throws {
        let folder = TemporaryFolder()
        let picture = FormatTools.picture()
        for depth in [8, 16] {
            let png = try FormatTools.png(picture, "in\(depth).png", in: folder, bitDepth: depth)
            let source = try FormatTools.decode(png).image
            let variants: [[String]] = [["--compression", "none"], ["--compression", "lzw", "--predictor", "horizontal"],
                                        ["--compression", "deflate", "--tile", "--tile-width", "16", "--tile-height", "16"],
                                        ["--compression", "lzw", "--tile", "--tile-width", "32", "--tile-height", "32"]]
            for (index, options) in variants.enumerated() {
                let tif = folder.file("out\(depth)_\(index).tif")
                try FormatTools.run(FormatTools.vips, ["tiffsave", png, tif] + options)
                let (image, info) = try FormatTools.decode(tif)
                let what = "\(depth)-bit \(options.joined(separator: " "))"
                XCTAssertEqual(info.format, .tiff, what)
                XCTAssertEqual(info.bitDepth, depth, what)
                XCTAssertEqual(info.pages, 1, what)
                XCTAssertEqual(maxDifference(image, source), 0, what)
            }
        }
    }

    func testGreyAndBothKindsOfAlpha() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(alpha: true), "in.png", in: folder)
        let source = try FormatTools.decode(png).image
        for alpha in ["unassociated", "associated"] {
            let tif = folder.file("\(alpha).tif")
            try FormatTools.run(FormatTools.convert, [png, "-define", "tiff:alpha=\(alpha)", tif])
            let (image, info) = try FormatTools.decode(tif)
            XCTAssertTrue(info.hasAlpha, alpha)
            // Associated alpha loses a little of a faint pixel's colour to premultiplied rounding.
            XCTAssertLessThanOrEqual(maxDifference(image, source), 1.01, alpha)
        }
        let grey = folder.file("grey.tif")
        try FormatTools.run(FormatTools.convert, [png, "-alpha", "off", "-colorspace", "gray", "-depth", "16", grey])
        let (image, info) = try FormatTools.decode(grey)
        XCTAssertEqual(info.colorSpace, "gray")
        XCTAssertEqual(info.bitDepth, 16)
        XCTAssertTrue(image.pixels.allSatisfy(\.isGrey))
        try FormatTools.run(FormatTools.vips, ["copy", grey, folder.file("grey_vips.png")])
        XCTAssertGreaterThan(psnr(image, try FormatTools.decode(folder.file("grey_vips.png")).image), 80)
    }

    /// TIFFRGBAImage's path: a palette file, checked against vips.
    func testPaletteTIFFMatchesVips() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(), "in.png", in: folder)
        let tif = folder.file("palette.tif")
        try FormatTools.run(FormatTools.convert, [png, "-colors", "16", "-type", "Palette", tif])
        let (image, info) = try FormatTools.decode(tif)
        XCTAssertEqual(info.colorSpace, "palette")
        try FormatTools.run(FormatTools.vips, ["copy", tif, folder.file("vips.png")])
        XCTAssertEqual(maxDifference(image, try FormatTools.decode(folder.file("vips.png")).image), 0)
    }

    /// CMYK goes through its profile as a CMYK JPEG does: the same samples give the same colours.
    func testCMYKThroughItsProfileAsJPEG() throws {
        let folder = TemporaryFolder()
        let tif = folder.file("cmyk.tif")
        try FormatTools.run(FormatTools.convert, [Fixtures.path("cmyk_press.jpg"), "-compress", "lzw", tif])
        let tiff = try folder.bytes("cmyk.tif")
        let info = try ImageCodec.readInfo(tiff)
        XCTAssertEqual(info.colorSpace, "cmyk")
        XCTAssertTrue(info.hasICCProfile)
        let fromTIFF = try render(tiff, options: .init(format: .png))
        let fromJPEG = try render(try Fixtures.bytes("cmyk_press.jpg"), options: .init(format: .png))
        XCTAssertEqual(fromTIFF.colorConvertedFrom, fromJPEG.colorConvertedFrom)
        XCTAssertNotNil(fromTIFF.colorConvertedFrom)
        XCTAssertGreaterThan(psnr(try ImageCodec.decode(fromTIFF.bytes).image, try ImageCodec.decode(fromJPEG.bytes).image), 45)
    }

    /// 16-bit CMYK goes through its profile too, at 16 bits (before, libtiff's RGBA reader took
    /// it naively at 8 bits and the profile was ignored): the same colours as its 8-bit twin.
    func testSixteenBitCMYKThroughItsProfileKeepsItsDepth() throws {
        let folder = TemporaryFolder()
        try FormatTools.run(FormatTools.convert, [Fixtures.path("cmyk_press.jpg"), "-depth", "16", "-compress", "lzw",
                                                  folder.file("cmyk16.tif")])
        try FormatTools.run(FormatTools.convert, [Fixtures.path("cmyk_press.jpg"), "-compress", "lzw", folder.file("cmyk8.tif")])
        let deep = try folder.bytes("cmyk16.tif")
        let info = try ImageCodec.readInfo(deep)
        XCTAssertEqual([info.colorSpace, "\(info.bitDepth)"], ["cmyk", "16"])
        let fromDeep = try render(deep, options: .init(format: .png))
        let fromEight = try render(try folder.bytes("cmyk8.tif"), options: .init(format: .png))
        XCTAssertNotNil(fromDeep.colorConvertedFrom, "converted through its profile")
        XCTAssertEqual(fromDeep.colorConvertedFrom, fromEight.colorConvertedFrom)
        XCTAssertEqual(pngHeader(fromDeep.bytes).depth, 16, "16-bit in, 16-bit out")
        XCTAssertGreaterThan(psnr(try ImageCodec.decode(fromDeep.bytes).image, try ImageCodec.decode(fromEight.bytes).image), 45)
    }

    func testFirstPageOfAMultiPageFileAndThePageCount() throws {
        let folder = TemporaryFolder()
        let first = try FormatTools.png(FormatTools.picture(width: 40, height: 30), "a.png", in: folder)
        let second = try FormatTools.png(FormatTools.picture(width: 20, height: 50), "b.png", in: folder)
        try FormatTools.run(FormatTools.vips, ["tiffsave", first, folder.file("a.tif")])
        try FormatTools.run(FormatTools.vips, ["tiffsave", second, folder.file("b.tif")])
        try FormatTools.run(FormatTools.tiffcp, [folder.file("a.tif"), folder.file("b.tif"), folder.file("both.tif")])
        let (image, info) = try FormatTools.decode(folder.file("both.tif"))
        XCTAssertEqual(info.pages, 2)
        XCTAssertEqual(image.size, Size(width: 40, height: 30))
        XCTAssertEqual(maxDifference(image, try FormatTools.decode(first).image), 0)
    }

    /// TIFF's own Orientation tag turns the image upright as EXIF's does (against vips autorot).
    func testOrientationTagIsApplied() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 40, height: 30), "in.png", in: folder)
        let tif = folder.file("turned.tif")
        try FormatTools.run(FormatTools.vips, ["tiffsave", png, tif])
        try FormatTools.run(FormatTools.tiffset, ["-s", "274", "6", tif])
        let bytes = try folder.bytes("turned.tif")
        XCTAssertEqual(try ImageCodec.readInfo(bytes).orientation, 6)
        let out = try render(bytes, options: .init(format: .png))
        XCTAssertEqual(out.size, Size(width: 30, height: 40))
        XCTAssertEqual(out.orientationApplied, 6)
        try FormatTools.run(FormatTools.vips, ["autorot", tif, folder.file("upright.png")])
        XCTAssertEqual(maxDifference(try ImageCodec.decode(out.bytes).image, try FormatTools.decode(folder.file("upright.png")).image), 0)
    }

    /// A striped scan is read scanline by scanline: a crop-on-load's rows above are decoded and
    /// dropped, its columns cut, and the pixels are those of a whole decode.
    func testCropOnLoadOfStripsAndTiles() throws {
        let folder = TemporaryFolder()
        let png = try FormatTools.png(FormatTools.picture(width: 96, height: 80), "in.png", in: folder)
        let whole = try FormatTools.decode(png).image
        for (name, options) in [("strips", ["--compression", "lzw"]), ("tiles", ["--tile", "--tile-width", "16", "--tile-height", "16"])] {
            try FormatTools.run(FormatTools.vips, ["tiffsave", png, folder.file("\(name).tif")] + options)
            let out = try render(try folder.bytes("\(name).tif"), "crop x=10 y=37 width=50 height=20", options: .init(format: .png))
            let expected = Image(width: 50, height: 20) { x, y in whole[x + 10, y + 37] }
            XCTAssertEqual(maxDifference(try ImageCodec.decode(out.bytes).image, expected), 0, name)
        }
    }
}
