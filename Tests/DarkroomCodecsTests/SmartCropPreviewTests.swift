import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// A smart crop measures its map on the JPEG's 1/8 preview and still puts the full-size window
/// over the interesting patch, as the full decode of a PNG does.
final class SmartCropPreviewTests: XCTestCase {
    func testThePreviewsWindowHoldsThePatchAsTheFullDecodesDoes() throws {
        let patch = Rect(x: 336, y: 48, width: 80, height: 80)
        let image = Image(width: 480, height: 320) { x, y in
            guard (336..<416).contains(x), (48..<128).contains(y) else { return Pixel(0.5 + Float(y) / 3200, 0.5, 0.5, 1) }
            return (x / 8 + y / 8) % 2 == 0 ? Pixel(0.9, 0.1, 0.1, 1) : Pixel(0.1, 0.2, 0.9, 1)
        }
        for (name, format) in [("jpeg", ImageFormat.jpeg), ("png", .png)] {
            let input = try ImageCodec.encode(image, options: EncodeOptions(format: format, quality: 95))
            for measure in ["attention", "entropy"] {
                let compiled = ChainCompiler.compile(try ChainSyntax.parse("crop width=160 height=160 gravity=\(measure)").resolve(seed: 1))
                let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(input))
                let png = try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: .png), limits: DecodeLimits())
                let out = try ImageCodec.decode(png.bytes).image
                XCTAssertEqual(out.size, Size(width: 160, height: 160))
                // The patch's pixels are the only saturated ones: count them in the crop.
                let kept = out.pixels.filter { max($0[0], $0[2]) - $0[1] > 0.4 }.count
                XCTAssertGreaterThanOrEqual(kept * 10, patch.size.area * 9, "\(name), \(measure): the crop holds the patch")
            }
        }
    }

    /// `resize fit=cover gravity=attention|entropy` on a large JPEG: shrunk on load (1/4 here)
    /// and measured on the 1/8 preview, the kept window still holds the patch, as on the PNG.
    func testASmartCoverFromAShrunkJPEGKeepsThePatch() throws {
        // 1920×640 with the busy patch near the right; a 120×120 cover of it keeps 640 of 1920 columns.
        let image = Image(width: 1920, height: 640) { x, y in
            guard (1480..<1640).contains(x), (240..<400).contains(y) else { return Pixel(0.5 + Float(y) / 6400, 0.5, 0.5, 1) }
            return (x / 40 + y / 40) % 2 == 0 ? Pixel(0.9, 0.1, 0.1, 1) : Pixel(0.1, 0.2, 0.9, 1)
        }
        for (name, format) in [("jpeg", ImageFormat.jpeg), ("png", .png)] {
            let input = try ImageCodec.encode(image, options: EncodeOptions(format: format, quality: 95))
            for measure in ["attention", "entropy"] {
                let compiled = ChainCompiler.compile(try ChainSyntax.parse("resize width=120 height=120 fit=cover gravity=\(measure)").resolve(seed: 1))
                let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(input))
                XCTAssertEqual(plan.shrink, format == .jpeg ? 2 : 1, "\(name): shrink-on-load as the plain resize")
                let png = try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: .png), limits: DecodeLimits())
                let out = try ImageCodec.decode(png.bytes).image
                XCTAssertEqual(out.size, Size(width: 120, height: 120))
                // The patch is 160 px = 30 px at 120/640: count its saturated pixels in the output.
                let kept = out.pixels.filter { max($0[0], $0[2]) - $0[1] > 0.4 }.count
                XCTAssertGreaterThanOrEqual(kept * 10, 30 * 30 * 7, "\(name), \(measure): the cover keeps the patch")
            }
        }
    }
}
