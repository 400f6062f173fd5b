import DarkroomCodecs
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// The reference tools of the TIFF, WebP and HEIF/AVIF tests (scripts/install-deps.sh installs
/// them; a missing one fails the test with the package to install).
enum FormatTools {
    static let vips = ("vips", "libvips-tools")
    static let cwebp = ("cwebp", "webp")
    static let dwebp = ("dwebp", "webp")
    static let img2webp = ("img2webp", "webp")
    static let heifEnc = ("heif-enc", "libheif-examples")
    static let heifConvert = ("heif-convert", "libheif-examples")
    static let avifdec = ("avifdec", "libavif-bin")
    static let tiffcp = ("tiffcp", "libtiff-tools")
    static let tiffinfo = ("tiffinfo", "libtiff-tools")
    static let tiffset = ("tiffset", "libtiff-tools")
    static let convert = ReferenceTool.convert

    /// Runs `tool`; returns what it printed.
    @discardableResult
    static func run(_ tool: (name: String, package: String), _ arguments: [String]) throws -> String {
        try ReferenceTool.output(tool, arguments)
    }

    /// A picture with smooth gradients and sharp edges, opaque or with an alpha ramp.
    static func picture(width: Int = 64, height: Int = 48, alpha: Bool = false) -> Image {
        Image(width: width, height: height) { x, y in
            let u = Float(x) / Float(width - 1), v = Float(y) / Float(height - 1)
            let stripe: Float = (x / 8 + y / 8) % 2 == 0 ? 0.15 : 0
            let a: Float = alpha ? 0.25 + 0.75 * u : 1
            return Pixel(0.1 + 0.8 * u, 0.9 - 0.7 * v + stripe, 0.3 + 0.4 * u * v, 1).premultiplied(by: a)
        }
    }

    /// `image` written as a PNG (8- or 16-bit) named `name` in `folder`; its path.
    static func png(_ image: Image, _ name: String, in folder: TemporaryFolder, bitDepth: Int = 8, icc: [UInt8]? = nil) throws -> String {
        try ReferenceTool.file(try ImageCodec.encode(image, options: .init(format: .png, bitDepth: bitDepth, icc: icc)), named: name, in: folder)
    }

    /// A render of `bytes` through a leading crop (the decoder's crop-on-load) gives the crop of
    /// a whole decode, sample for sample.
    static func assertCropOnLoadMatchesAWholeDecode(_ bytes: [UInt8], _ crop: Rect,
                                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = try ImageCodec.decode(bytes).image
        let out = try render(bytes, "crop x=\(crop.x) y=\(crop.y) width=\(crop.width) height=\(crop.height)", options: .init(format: .png))
        let expected = Image(width: crop.width, height: crop.height) { x, y in whole[x + crop.x, y + crop.y] }
        XCTAssertEqual(maxDifference(try ImageCodec.decode(out.bytes).image, expected), 0, file: file, line: line)
    }

    /// An Adobe RGB PNG encoded by `encode` (the format's own tool: PNG path in, output path
    /// out) keeps its profile, and darkroom converts it to sRGB as it converts the PNG's own.
    static func assertProfileIsConvertedToSRGB(named output: String, minimumPSNR: Double,
                                               encode: (_ png: String, _ output: String) throws -> Void,
                                               file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = TemporaryFolder()
        let adobe = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("adobe_rgb.icc"))))
        let png = try FormatTools.png(FormatTools.picture(width: 64, height: 48), "in.png", in: folder, icc: adobe)
        try encode(png, folder.file(output))
        let converted = try render(try folder.bytes(output), options: .init(format: .png))
        let direct = try render(try folder.bytes("in.png"), options: .init(format: .png))
        XCTAssertNotNil(converted.colorConvertedFrom, file: file, line: line)
        XCTAssertEqual(converted.colorConvertedFrom, direct.colorConvertedFrom, file: file, line: line)
        let quality = psnr(try ImageCodec.decode(converted.bytes).image, try ImageCodec.decode(direct.bytes).image)
        XCTAssertGreaterThan(quality, minimumPSNR, file: file, line: line)
    }

    /// The file at `path` decoded by darkroom.
    static func decode(_ path: String) throws -> (image: Image, info: ImageInfo) {
        try ImageCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}

extension Pixel {
    /// This straight colour with alpha `a`, premultiplied.
    func premultiplied(by a: Float) -> Pixel { Pixel(self[0] * a, self[1] * a, self[2] * a, a) }
}

/// The largest difference of any channel (alpha included) between two images of one size, in
/// 1/255 steps of straight colour where alpha allows it.
func maxDifference(_ a: Image, _ b: Image) -> Float {
    precondition(a.size == b.size, "\(a.size) vs \(b.size)")
    var worst: Float = 0
    for (p, q) in zip(a.pixels, b.pixels) {
        for c in 0..<4 { worst = max(worst, abs(p[c] - q[c])) }
    }
    return worst * 255
}
