import DarkroomCodecs
@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest

/// overlay_image against libvips' `composite2` (over), and the fringe test: a logo with soft,
/// antialiased edges stamped on a photo must not darken it where the logo is transparent.
final class CompositeReferenceTests: XCTestCase {
    /// A logo with alpha: a disc whose edge fades out (straight colour stays orange, so any
    /// mistake with premultiplication shows as a dark or light rim).
    let logo = Image(width: 24, height: 18) { x, y in
        let d = ((Float(x) - 11.5) * (Float(x) - 11.5) + (Float(y) - 8.5) * (Float(y) - 8.5)).squareRoot()
        return Pixel(1, 0.55, 0.1, max(0, min(1, (9 - d) / 3))).premultiplied
    }

    private func png(_ image: Image) throws -> [UInt8] { try ImageCodec.encode(image, options: EncodeOptions(format: .png)) }

    /// At a point: `vips composite2 base logo out over --x --y`, within 1/255 (both quantise to 8 bits).
    func testOverlayAtAPointMatchesVipsComposite() throws {
        let folder = TemporaryFolder()
        let base = testTexture(60, 40)
        let decodedLogo = try ImageCodec.decode(try png(logo)).image
        let assets = DrawingAssets(images: ["logo.png": DrawingAssets.asset("logo.png", decodedLogo)])
        let decodedBase = try ImageCodec.decode(try png(base)).image
        let ours = try draw("overlay_image image=logo.png at=[31,17]", on: decodedBase, assets: assets)
        let basePath = try ReferenceTool.file(try png(base), named: "base.png", in: folder)
        let logoPath = try ReferenceTool.file(try png(logo), named: "logo.png", in: folder)
        _ = try ReferenceTool.output(("vips", "libvips-tools"), ["composite2", basePath, logoPath, folder.file("out.png"), "over", "--x", "31", "--y", "17"])
        let reference = try ImageCodec.decode(try folder.bytes("out.png")).image
        XCTAssertLessThanOrEqual(worstDifference(ours, reference), 1.01)
    }

    /// In a rectangle (the logo stretched to 48×36): vips resizes it with its own kernel
    /// (`vips resize`, premultiplied) and composites; the kernels differ, so PSNR ≥ 30 dB.
    func testOverlayInARectangleMatchesVipsResizeAndComposite() throws {
        let folder = TemporaryFolder()
        let base = testTexture(80, 60)
        let decodedLogo = try ImageCodec.decode(try png(logo)).image
        let assets = DrawingAssets(images: ["logo.png": DrawingAssets.asset("logo.png", decodedLogo)])
        let ours = try draw("overlay_image image=logo.png rect=[10,12,48,36] fit=stretch", on: try ImageCodec.decode(try png(base)).image, assets: assets)
        let basePath = try ReferenceTool.file(try png(base), named: "base.png", in: folder)
        let logoPath = try ReferenceTool.file(try png(logo), named: "logo.png", in: folder)
        _ = try ReferenceTool.output(("vips", "libvips-tools"), ["resize", logoPath, folder.file("big.png"), "2", "--kernel", "linear"])
        _ = try ReferenceTool.output(("vips", "libvips-tools"), ["composite2", basePath, folder.file("big.png"), folder.file("out.png"), "over", "--x", "10", "--y", "12"])
        let reference = try ImageCodec.decode(try folder.bytes("out.png")).image
        XCTAssertGreaterThanOrEqual(psnr(ours, reference), 30)
        // Outside the rectangle nothing changed.
        XCTAssertEqual(worstDifference(ours, reference, in: Rect(x: 0, y: 0, width: 80, height: 12)), 0)
    }

    /// A white logo with soft edges on a white photo stays white everywhere, drawn at its
    /// natural size, scaled by cairo, and as an SVG rendered by librsvg: no dark fringes.
    func testAStampWithAlphaLeavesNoFringes() throws {
        let whiteLogo = Image(width: 24, height: 18) { x, y in
            let d = ((Float(x) - 11.5) * (Float(x) - 11.5) + (Float(y) - 8.5) * (Float(y) - 8.5)).squareRoot()
            return Pixel(1, 1, 1, max(0, min(1, (9 - d) / 3))).premultiplied
        }
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="7.3" fill="white" fill-opacity="0.8"/></svg>"##
        let assets = DrawingAssets(images: ["logo.png": DrawingAssets.asset("logo.png", whiteLogo)], documents: ["logo.svg": svg])
        let white = Image(width: 70, height: 50, fill: Pixel(1, 1, 1, 1))
        for chain in ["overlay_image image=logo.png at=[3,4]", "overlay_image image=logo.png width=57 gravity=center",
                      "overlay_image image=logo.png tile=true width=13", "overlay_image image=logo.svg width=41 gravity=south_east",
                      "blend image=logo.svg fit=inside mode=normal"] {
            let out = try draw(chain, on: white, assets: assets)
            let darkest = out.pixels.map { $0.min() }.min() ?? 0
            XCTAssertGreaterThanOrEqual(darkest, 1 - 0.5 / 255, "\(chain): a fringe darker than white")
        }
    }

    /// The SVG is rendered at the size it is drawn: scaled ten times, its edge is as sharp as
    /// at natural size (a bitmap scaled up would be blurred across ~10 pixels).
    func testAnSVGStaysSharpWhenScaled() throws {
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect x="2" y="2" width="6" height="6" fill="black"/></svg>"##
        let out = try draw("overlay_image image=logo.svg width=100", on: Image(width: 100, height: 100, fill: Pixel(1, 1, 1, 1)),
                           assets: DrawingAssets(documents: ["logo.svg": svg]))
        // The square spans 20..<80: pixel 19 is white, 20 black, with no ramp between.
        XCTAssertEqual(out[19, 50], Pixel(1, 1, 1, 1))
        XCTAssertEqual(out[20, 50], Pixel(0, 0, 0, 1))
        XCTAssertEqual(out[79, 50], Pixel(0, 0, 0, 1))
        XCTAssertEqual(out[80, 50], Pixel(1, 1, 1, 1))
    }

    /// A broken SVG is refused when the chain is read, with librsvg's reason.
    func testABrokenSVGIsAnErrorAtLoad() {
        let assets = DrawingAssets(documents: ["bad.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect"])
        XCTAssertThrowsError(try ChainSyntax.parse("overlay_image image=bad.svg width=10", registry: .shipped, assets: assets)) {
            XCTAssertTrue("\($0)".hasPrefix("overlay_image: bad.svg: not a valid SVG document"), "\($0)")
        }
    }
}
