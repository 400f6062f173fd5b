@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest

/// draw against the same shapes written as SVG and rendered by librsvg, and drawn by
/// ImageMagick's `-draw`: strokes with each join, dashes with caps, arcs, curves and an
/// even-odd path. White on black, so grey is coverage.
///
/// Tolerances: librsvg rasterises with cairo too (same stroker, same dash walker), so only curve
/// approximations differ: mean below 0.5/255, no pixel more than 0.15 apart. ImageMagick strokes
/// and antialiases its own way (its coordinates are pixel centres, so shapes are given half a
/// pixel earlier): mean below 8/255 and at most 2 % of the pixels inside for one and outside
/// for the other (its own mean error against exact coverage is 4–6/255 on filled shapes, see
/// ClipFilterTests, and more on thin strokes).
final class DrawFilterTests: XCTestCase {
    let (w, h) = (80, 60)
    var black: Image { Image(width: w, height: h) { _, _ in Pixel(0, 0, 0, 1) } }

    private func ours(_ shapes: String, seed: UInt64 = 1) throws -> [Float] {
        ShapeReferences.grey(try ShapeReferences.apply("draw shapes=[\(shapes)]", to: black))
    }

    private func assertClose(_ ours: [Float], svg: String, magick: [String]? = nil, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let s = ShapeReferences.compare(ours, try ShapeReferences.svg(svg, width: w, height: h))
        print("\(what) against librsvg: max \(s.max * 255)/255, mean \(s.mean * 255)/255")
        XCTAssertLessThan(s.mean, 0.5 / 255, "\(what) against librsvg", file: file, line: line)
        XCTAssertLessThan(s.max, 0.15, "\(what) against librsvg", file: file, line: line)
        guard let magick else { return }
        let m = ShapeReferences.compare(ours, try ShapeReferences.magick(magick, width: w, height: h))
        print("\(what) against ImageMagick: max \(m.max * 255)/255, mean \(m.mean * 255)/255, flipped \(m.flipped * 100) %")
        XCTAssertLessThan(m.mean, 8 / 255, "\(what) against ImageMagick", file: file, line: line)
        XCTAssertLessThan(m.flipped, 0.02, "\(what) against ImageMagick", file: file, line: line)
    }

    func testJoins() throws {
        for join in ["miter", "round", "bevel"] {
            try assertClose(
                try ours("{shape=polyline, points=[10,50,30,10,50,50,70,20], stroke=white, line_width=7, join=\(join)}"),
                svg: #"<polyline points="10,50 30,10 50,50 70,20" fill="none" stroke="white" stroke-width="7" stroke-linejoin="\#(join)"/>"#,
                // ImageMagick 6.9's miter joins differ from cairo's and librsvg's (6 % of the
                // pixels flipped, measured), so it is compared on round and bevel joins only.
                magick: join == "miter" ? nil : ["-fill", "none", "-stroke", "white", "-strokewidth", "7", "-draw",
                                                 "stroke-linejoin \(join) polyline 9.5,49.5 29.5,9.5 49.5,49.5 69.5,19.5"],
                "polyline joined \(join)")
        }
    }

    /// A miter longer than miter_limit line widths is bevelled.
    func testMiterLimit() throws {
        try assertClose(
            try ours("{shape=polyline, points=[10,50,40,10,44,50], stroke=white, line_width=5, miter_limit=2}"),
            svg: #"<polyline points="10,50 40,10 44,50" fill="none" stroke="white" stroke-width="5" stroke-miterlimit="2"/>"#,
            "miter limit 2")
    }

    func testDashesAndCaps() throws {
        for cap in ["butt", "round", "square"] {
            try assertClose(
                try ours("{shape=line, points=[8,30,72,30], stroke=white, line_width=6, dash=[10,6], cap=\(cap)}"),
                svg: #"<line x1="8" y1="30" x2="72" y2="30" stroke="white" stroke-width="6" stroke-dasharray="10 6" stroke-linecap="\#(cap)"/>"#,
                magick: cap == "butt" ? ["-stroke", "white", "-strokewidth", "6", "-draw",
                                         "stroke-dasharray 10 6 line 7.5,29.5 71.5,29.5"] : nil,
                "dashed line, \(cap) caps")
        }
    }

    /// An SVG path with curves and two arcs turning the same way as the outline: even-odd makes
    /// the inner loop a hole, nonzero fills it.
    func testEvenOddPathWithCurvesAndArcs() throws {
        let d = "M 10 30 C 10 5 70 5 70 30 S 10 55 10 30 Z M 25 30 A 15 10 0 1 1 55 30 A 15 10 0 1 1 25 30 Z"
        for rule in ["even_odd", "nonzero"] {
            let mine = try ours("{shape=path, d=\"\(d)\", fill=white, fill_rule=\(rule)}")
            try assertClose(mine, svg: #"<path d="\#(d)" fill="white" fill-rule="\#(rule == "even_odd" ? "evenodd" : "nonzero")"/>"#,
                            "path \(rule)")
            XCTAssertEqual(mine[30 * w + 40], rule == "even_odd" ? 0 : 1, accuracy: 1e-6, "the inner loop with \(rule)")
        }
    }

    func testRelativeAndShorthandPathCommands() throws {
        let d = "m 10 10 h 20 v 15 l -10 10 q 5 20 30 20 t 20 -10 z"
        try assertClose(try ours("{shape=path, d=\"\(d)\", fill=white, stroke=white, line_width=1}"),
                        svg: #"<path d="\#(d)" fill="white" stroke="white" stroke-width="1"/>"#, "relative path")
    }

    func testEllipseRoundedRectAndArc() throws {
        try assertClose(
            try ours("{shape=ellipse, center=[40,30], radii=[30,20], stroke=white, line_width=3}, "
                     + "{shape=rounded_rect, x=20, y=20, width=40, height=20, radius=6, fill=white}, "
                     + "{shape=arc, center=[40,30], radius=[12], start=0, end=270deg, stroke=white, line_width=2, cap=round}"),
            svg: #"""
                <ellipse cx="40" cy="30" rx="30" ry="20" fill="none" stroke="white" stroke-width="3"/>
                <rect x="20" y="20" width="40" height="20" rx="6" fill="white"/>
                <path d="M 52 30 A 12 12 0 1 1 40 18" fill="none" stroke="white" stroke-width="2" stroke-linecap="round"/>
                """#,
            magick: ["-fill", "none", "-stroke", "white", "-strokewidth", "3", "-draw", "ellipse 39.5,29.5 30,20 0,360",
                     "-stroke", "none", "-fill", "white", "-draw", "roundrectangle 19.5,19.5 59.5,39.5 6,6",
                     "-fill", "none", "-stroke", "white", "-strokewidth", "2", "-draw", "stroke-linecap round arc 27.5,17.5 51.5,41.5 0,270"],
            "ellipse, rounded rectangle, arc")
    }

    /// Opacity and a blend mode apply as the W3C formulas say: half-white over black is 0.5 grey;
    /// multiply by white leaves the image.
    func testOpacityAndBlend() throws {
        let half = try ours("{shape=rect, x=0, y=0, width=40, height=60, fill=white, opacity=0.5}")
        XCTAssertEqual(half[10 * w + 10], 0.5, accuracy: 1e-6)
        XCTAssertEqual(half[10 * w + 60], 0)
        let grey = Image(width: 8, height: 8) { _, _ in Pixel(0.4, 0.4, 0.4, 1) }
        let multiplied = try ShapeReferences.apply("draw shapes=[{shape=rect, fill=white, blend=multiply}]", to: grey)
        XCTAssertEqual(multiplied[3, 3][0], 0.4, accuracy: 1e-6)
        let screened = try ShapeReferences.apply("draw shapes=[{shape=rect, fill=#808080, blend=screen}]", to: grey)
        XCTAssertEqual(screened[3, 3][0], 1 - 0.6 * (1 - 128.0 / 255), accuracy: 1e-5)
    }

    /// QuartzFun's random colours: drawn with the job's seed, recorded by the shape's index.
    func testRandomColoursComeFromTheSeed() throws {
        let chain = "draw shapes=[{shape=rect, fill=random}, {shape=ellipse, stroke=random, line_width=4}]"
        let a = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 5)[0]
        let b = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 5)[0]
        let c = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 6)[0]
        XCTAssertEqual(a.parameters.randomNames, ["shapes[0].fill", "shapes[1].stroke"])
        let fa = (a.filter as! DrawFilter).shapes, fb = (b.filter as! DrawFilter).shapes, fc = (c.filter as! DrawFilter).shapes
        XCTAssertEqual(fa[0].fill, fb[0].fill)
        XCTAssertEqual(fa[1].stroke, fb[1].stroke)
        XCTAssertNotEqual(fa[0].fill, fc[0].fill)
    }

    /// A report's parameters paste back into a chain: path data is quoted, records braced.
    func testReportedShapesPasteBackIntoAChain() throws {
        let chain = #"draw shapes=[{shape=path, d="M 0 0 L 10 10, 0 10 Z", fill=random, dash=[3,1]}]"#
        let first = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 9)[0]
        let written = "draw shapes=" + (first.parameters["shapes"]?.description ?? "")
        let again = try ChainSyntax.parse(written, registry: .shipped).resolve(seed: 1)[0]
        // The same text again (a random colour is written to 8 bits, so compare as written).
        XCTAssertEqual(again.parameters["shapes"]?.description, first.parameters["shapes"]?.description)
        XCTAssertEqual((again.filter as? DrawFilter)?.shapes.count, 1)
    }

    /// Problems inside a shape name the shape and the key.
    func testErrorsSayWhereInsideTheShape() {
        func error(_ chain: String) -> String? {
            do { _ = try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 1) } catch { return error.description }
            return nil
        }
        XCTAssertEqual(error("draw shapes=[{shape=rect}, {shape=ellipse, points=[1,2,3,4]}]"),
                       "shapes[1].points: draw: belongs to shape line, polygon, polyline, not ellipse")
        XCTAssertEqual(error("draw shapes=[{shape=polygon, points=[1,2,3,4]}]"),
                       "shapes[0].points: draw: give x, y pairs, at least 3 points; got 4 numbers")
        XCTAssertEqual(error("draw shapes=[{shape=path, d=\"M 0 0 L 10\"}]"),
                       "shapes[0].d: draw: path data at character 11: a number is missing at the end")
        XCTAssertEqual(error("draw shapes=[{shape=path, d=\"M 0 0 X 10\"}]"),
                       "shapes[0].d: draw: path data at character 7 (\"X 10\"): expected a number")
        XCTAssertEqual(error("draw shapes=[{shape=rect, dash=[0,0]}]"),
                       "shapes[0].dash: draw: dash lengths must be at least 0 and not all 0, got [0, 0]")
        XCTAssertNotNil(error("draw shapes=[{shape=rect, line_width=-1}]"))
        XCTAssertNotNil(error("draw shapes=[{fill=red}]"), "shape is required")
    }
}
