@testable import DarkroomCore
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

    /// The columns of `wide` where `part` (as tall) fits best: the least mean difference.
    private func bestColumn(of part: Image, in wide: Image) -> Int {
        (0...(wide.width - part.width)).min { a, b in
            func error(_ x: Int) -> Float {
                var sum: Float = 0
                for y in 0..<part.height { for i in 0..<part.width { sum += ImageComparison.distance(part[i, y], wide[x + i, y], channels: 0..<3) } }
                return sum
            }
            return error(a) < error(b)
        }!
    }

    /// `resize fit=cover gravity=attention|entropy` keeps the window `vips thumbnail --smartcrop`
    /// keeps: on a 200×80 image with the busy patch right of centre, resized to 40×40 (the image
    /// at half size is 100×40, so 60 columns are cut), both windows hold the patch and start
    /// within 6 columns of each other; the centred cover would miss it.
    func testCoverWithAnInterestGravityKeepsWhatVipsThumbnailKeeps() throws {
        let patch = Rect(x: 130, y: 30, width: 20, height: 20)
        let image = Image(width: 200, height: 80) { x, y in
            if patch.contains(x, y) { return (x / 3 + y / 3) % 2 == 0 ? Pixel(0.9, 0.2, 0.1, 1) : Pixel(0.1, 0.3, 0.9, 1) }
            return Pixel(0.5 + Float(y) / 800, 0.5, 0.5, 1)
        }
        let half = try ChainCompiler.compile(try ChainSyntax.parse("resize width=100 height=40").resolve(seed: 1))
            .run(image, executor: smallTiles).image
        for measure in ["attention", "entropy"] {
            let chain = ChainCompiler.compile(try ChainSyntax.parse("resize width=40 height=40 fit=cover gravity=\(measure)").resolve(seed: 1))
            XCTAssertTrue(chain.hasAnalysis, "a smart cover measures first")
            let ours = try chain.run(image, executor: smallTiles).image
            XCTAssertEqual(ours.size, Size(width: 40, height: 40))
            let vips = try ExternalTool.vips.run(image, ["thumbnail", "$IN", "$OUT", "40", "--height", "40", "--crop", measure])
            XCTAssertEqual(vips.size, ours.size)
            let (at, theirs) = (bestColumn(of: ours, in: half), bestColumn(of: vips, in: half))
            // The patch is columns 65..<75 at half size.
            for (who, x) in [("darkroom", at), ("vips", theirs)] {
                XCTAssertTrue(x <= 65 && x + 40 >= 75, "\(measure): \(who)'s window \(x)..<\(x + 40) holds the patch")
            }
            XCTAssertLessThanOrEqual(abs(at - theirs), 6, measure)
            // Like the plain resize, it may start from a JPEG shrunk on load (1/75 here: a 1/8 decode).
            XCTAssertEqual(chain.sourceShrinkFactor(for: Size(width: 4000, height: 3000)), 8, measure)
        }
    }

    /// A compass gravity anchors the cover's window: `west` keeps the left columns, the same
    /// pixels as the left of a plain resize to the image's aspect (within 1e-5).
    func testCoverWithACompassGravityKeepsThatSide() throws {
        let image = Self.scene()
        let run = { (text: String) in try ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)).run(image, executor: smallTiles).image }
        let inside = try run("resize width=60 height=40")
        let west = try run("resize width=40 height=40 fit=cover gravity=west")
        let east = try run("resize width=40 height=40 fit=cover gravity=east")
        for y in 0..<40 { for x in 0..<40 {
            XCTAssertEqual(ImageComparison.distance(west[x, y], inside[x, y], channels: 0..<4), 0, accuracy: 1e-5)
            XCTAssertEqual(ImageComparison.distance(east[x, y], inside[x + 20, y], channels: 0..<4), 0, accuracy: 1e-5)
        } }
        XCTAssertThrowsError(try ChainSyntax.parse("resize width=40 height=40 gravity=attention").resolve(seed: 1),
                             "gravity needs fit: cover")
    }
}
