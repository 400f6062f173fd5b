import DarkroomCore
import XCTest

/// `crop gravity=attention|entropy` against `vips smartcrop`: on a flat image with one busy,
/// saturated patch, both put the window over the patch.
final class SmartCropTests: XCTestCase {
    static let patch = Rect(x: 84, y: 12, width: 20, height: 20)

    static func scene() -> Image {
        Image(width: 120, height: 80) { x, y in
            if patch.contains(x, y) {
                let on = (x / 3 + y / 3) % 2 == 0
                return on ? Pixel(0.9, 0.2, 0.1, 1) : Pixel(0.1, 0.3, 0.9, 1)
            }
            return Pixel(0.5 + Float(y) / 800, 0.5, 0.5, 1)
        }
    }

    /// Where `crop` (cut out of `image`) sits in it: the one offset where every pixel matches.
    private func offset(of crop: Image, in image: Image) -> (x: Int, y: Int)? {
        for y in 0...(image.height - crop.height) {
            for x in 0...(image.width - crop.width) {
                var same = true
                for cy in stride(from: 0, to: crop.height, by: 3) where same {
                    for cx in stride(from: 0, to: crop.width, by: 3) where ImageComparison.distance(crop[cx, cy], image[x + cx, y + cy], channels: 0..<3) > 1.5 / 255 {
                        same = false
                        break
                    }
                }
                if same { return (x, y) }
            }
        }
        return nil
    }

    func testTheWindowCoversTheInterestingPatchAsVipsSmartcropDoes() throws {
        let image = Self.scene()
        for measure in ["attention", "entropy"] {
            let chain = ChainCompiler.compile(try ChainSyntax.parse("crop width=40 height=40 gravity=\(measure)").resolve(seed: 1))
            XCTAssertTrue(chain.hasAnalysis, "a smart crop measures first")
            let ours = try chain.run(image, executor: smallTiles).image
            XCTAssertEqual(ours.size, Size(width: 40, height: 40))
            let at = try XCTUnwrap(offset(of: ours, in: image), measure)
            let window = Rect(x: at.x, y: at.y, width: 40, height: 40)
            // Entropy cuts a column at a time and may shave an edge of the patch: 90 % of it is kept.
            XCTAssertGreaterThanOrEqual(window.intersection(Self.patch).size.area * 10, Self.patch.size.area * 9,
                                        "\(measure): the window holds the patch")

            let vips = try ExternalTool.vips.run(image, ["smartcrop", "$IN", "$OUT", "40", "40", "--interesting", measure])
            let theirs = try XCTUnwrap(offset(of: vips, in: image), "vips' crop is a window of the image")
            XCTAssertGreaterThanOrEqual(Rect(x: theirs.x, y: theirs.y, width: 40, height: 40).intersection(Self.patch).size.area * 10,
                                        Self.patch.size.area * 9, "\(measure): vips keeps the patch too")
            XCTAssertLessThanOrEqual(abs(theirs.x - at.x), 12, measure)
            XCTAssertLessThanOrEqual(abs(theirs.y - at.y), 12, measure)
        }
        // Any other gravity stays a plain crop, with no measuring pass.
        XCTAssertFalse(ChainCompiler.compile(try ChainSyntax.parse("crop width=40 height=40 gravity=north").resolve(seed: 1)).hasAnalysis)
    }
}
