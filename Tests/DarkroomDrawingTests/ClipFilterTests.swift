@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest

/// clip against the same shapes drawn by librsvg (SVG `<ellipse>`, `<rect rx>`, `<polygon
/// fill-rule>`) and by ImageMagick's `-draw`. A white image clipped with a black outside is the
/// shape's coverage. Tolerances: librsvg also rasterises with cairo, so only the Bézier
/// approximation of curves differs: mean difference below 0.5/255 and no pixel more than 0.15
/// apart. ImageMagick antialiases its own way (and centres its coordinates on pixel centres, so
/// its shapes are given half a pixel earlier): mean below 7/255 and no more than 1 % of the
/// pixels inside for one and outside for the other. ImageMagick's own mean error against the
/// exact coverage (8×8 supersampled) is 3.8/255 on the test ellipse and 5.7/255 on the star.
final class ClipFilterTests: XCTestCase {
    let (w, h) = (64, 48)
    var white: Image { Image(width: w, height: h) { _, _ in Pixel(1, 1, 1, 1) } }

    private func ours(_ args: String) throws -> [Float] {
        ShapeReferences.grey(try ShapeReferences.apply("clip outside=black \(args)", to: white))
    }

    private func assertClose(_ ours: [Float], svg: [Float], magick: [Float]? = nil, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let s = ShapeReferences.compare(ours, svg)
        print("\(what) against librsvg: max \(s.max * 255)/255, mean \(s.mean * 255)/255")
        XCTAssertLessThan(s.mean, 0.5 / 255, "\(what) against librsvg", file: file, line: line)
        XCTAssertLessThan(s.max, 0.15, "\(what) against librsvg", file: file, line: line)
        if let magick {
            let m = ShapeReferences.compare(ours, magick)
            print("\(what) against ImageMagick: max \(m.max * 255)/255, mean \(m.mean * 255)/255, flipped \(m.flipped * 100) %")
            XCTAssertLessThan(m.mean, 7 / 255, "\(what) against ImageMagick", file: file, line: line)
            XCTAssertLessThan(m.flipped, 0.01, "\(what) against ImageMagick", file: file, line: line)
        }
    }

    func testEllipse() throws {
        assertClose(try ours("shape=ellipse center=[30,22] radii=[25,17.5]"),
                    svg: try ShapeReferences.svg(#"<ellipse cx="30" cy="22" rx="25" ry="17.5" fill="white"/>"#, width: w, height: h),
                    magick: try ShapeReferences.magick(["-fill", "white", "-draw", "ellipse 29.5,21.5 25,17.5 0,360"], width: w, height: h),
                    "ellipse")
    }

    func testPercentagesReferToTheImage() throws {
        XCTAssertEqual(try ours("shape=ellipse center=[50%,50%] radii=[25%,25%]"),
                       try ours("shape=ellipse center=[32,24] radii=[16,12]"))
    }

    func testRoundedRectangle() throws {
        assertClose(try ours("shape=rounded_rect x=6 y=5 width=50 height=36 radius=9"),
                    svg: try ShapeReferences.svg(#"<rect x="6" y="5" width="50" height="36" rx="9" fill="white"/>"#, width: w, height: h),
                    magick: try ShapeReferences.magick(["-fill", "white", "-draw", "roundrectangle 5.5,4.5 55.5,40.5 9,9"], width: w, height: h),
                    "rounded rectangle")
    }

    /// The drawing chapter's star: filled even-odd, its inner pentagon is outside; nonzero, inside.
    func testEvenOddStarLosesItsPentagon() throws {
        let star = [32.0, 2, 44.9, 41.8, 11.1, 17.2, 52.9, 17.2, 19.1, 41.8]
        let points = star.map { String($0) }.joined(separator: ",")
        let svgPoints = stride(from: 0, to: star.count, by: 2).map { "\(star[$0]),\(star[$0 + 1])" }.joined(separator: " ")
        let magickPoints = stride(from: 0, to: star.count, by: 2).map { "\(star[$0] - 0.5),\(star[$0 + 1] - 0.5)" }.joined(separator: " ")
        for rule in ["even_odd", "nonzero"] {
            let svgRule = rule == "even_odd" ? "evenodd" : "nonzero"
            let mine = try ours("shape=polygon points=[\(points)] fill_rule=\(rule)")
            assertClose(mine,
                        svg: try ShapeReferences.svg(#"<polygon points="\#(svgPoints)" fill-rule="\#(svgRule)" fill="white"/>"#, width: w, height: h),
                        magick: try ShapeReferences.magick(["-fill", "white", "-draw",
                                                            "fill-rule \(svgRule) polygon \(magickPoints)"], width: w, height: h),
                        "star \(rule)")
            // The star's centre (32, 24) lies in the pentagon.
            XCTAssertEqual(mine[24 * w + 32], rule == "even_odd" ? 0 : 1, "the pentagon with \(rule)")
        }
    }

    /// A path with a hole (two opposite loops), as SVG path data.
    func testPathWithAHole() throws {
        let d = "M 8 6 H 56 V 42 H 8 Z M 20 14 V 34 H 44 V 14 Z"
        assertClose(try ours("shape=path d=\"\(d)\""),
                    svg: try ShapeReferences.svg(#"<path d="\#(d)" fill="white"/>"#, width: w, height: h), "path with a hole")
        XCTAssertEqual(try ours("shape=path d=\"\(d)\"")[24 * w + 32], 0, "the hole is outside")
    }

    func testOutsideBecomesTransparentAndInsideKeepsTheImage() throws {
        let photo = Image(width: 20, height: 20) { x, y in Pixel(Float(x) / 20, Float(y) / 20, 0.5, 1) }
        let out = try ShapeReferences.apply("clip shape=rect x=5 y=5 width=10 height=10", to: photo)
        XCTAssertEqual(out[0, 0], .zero)
        XCTAssertEqual(out[10, 10], photo[10, 10])
        XCTAssertEqual(out[5, 5], photo[5, 5], "a pixel-aligned edge is sharp")
        XCTAssertEqual(out[4, 5], .zero)
    }

    /// Feathering blurs the edge symmetrically: half coverage stays on the edge, the soft band
    /// widens with feather, and strips see the same edge as the whole image.
    func testFeatherSoftensTheEdgeSymmetrically() throws {
        let sharp = try ours("shape=rect x=32 y=0 width=32 height=48")
        let soft = try ours("shape=rect x=32 y=0 width=32 height=48 feather=8")
        XCTAssertEqual(sharp[24 * w + 31], 0)
        XCTAssertEqual(soft[24 * w + 32] + soft[24 * w + 31], 1, accuracy: 1e-3, "the edge's two sides add to one")
        XCTAssertGreaterThan(soft[24 * w + 28], 0.05)
        XCTAssertLessThan(soft[24 * w + 36], 0.95)
        XCTAssertEqual(soft[24 * w + 5], 0, accuracy: 1e-6)
        let whole = try ShapeReferences.apply("clip shape=ellipse feather=6", to: white)
        let resolved = try ChainSyntax.parse("clip shape=ellipse feather=6", registry: .shipped).resolve(seed: 1)
        let strips = try (resolved[0].filter as! any RegionFilter).apply(to: white, executor: StripExecutor(bandHeight: 1, concurrency: 3))
        XCTAssertEqual(whole, strips)
    }

    /// A feathered edge is the sharp coverage blurred by a Gaussian of sigma feather/2, the
    /// shape's parts beyond the image included: against librsvg's ellipse (reaching past the
    /// left and right edges) blurred by ImageMagick's `-gaussian-blur`. Both quantise to 8 bits
    /// and cut the bell at slightly different widths (measured: mean 0.47/255, max 1.1/255):
    /// mean below 0.75/255, no pixel 2/255 apart.
    func testFeatherIsTheShapeBlurredBeyondTheImageToo() throws {
        for feather in [6.0, 13.0] {
            let ours = try ours("shape=ellipse center=[30,22] radii=[40,17.5] feather=\(feather)")
            let theirs = try ShapeReferences.svg(#"<ellipse cx="30" cy="22" rx="40" ry="17.5" fill="white"/>"#,
                                                 width: w, height: h, blur: feather / 2)
            let d = ShapeReferences.compare(ours, theirs)
            print("feather \(feather) against librsvg + ImageMagick: max \(d.max * 255)/255, mean \(d.mean * 255)/255")
            XCTAssertLessThan(d.mean, 0.75 / 255, "feather \(feather)")
            XCTAssertLessThan(d.max, 2 / 255, "feather \(feather)")
        }
    }

    /// Errors name the key and the shape it belongs to.
    func testShapeKeysAreCheckedAtLoad() {
        let error = ShapeReferences.loadError
        XCTAssertEqual(error("clip shape=ellipse points=[1,2,3,4,5,6]"), "points: clip: belongs to shape line, polygon, polyline, not ellipse")
        XCTAssertNotNil(error("clip shape=polygon"))
        XCTAssertNotNil(error("clip shape=polygon points=[1,2,3,4]"))
        XCTAssertNotNil(error("clip shape=rounded_rect radius=[1,2]"))
        XCTAssertNotNil(error("clip shape=star"))
        XCTAssertNotNil(error("clip feather=-1"))
    }
}
