@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import Foundation
import XCTest

/// group (a transparency layer) against librsvg rendering the same shapes in an SVG
/// `<g opacity>` (with the spec's expansion of `feDropShadow` for the shadow), against a
/// hand-computed Gaussian edge, and against its own definition for `source: image`.
/// White on black, so grey is coverage.
///
/// Tolerances: librsvg rasterises with cairo too, so the layer matches within 1/255 (the
/// rounding of its 8-bit group surface; measured 0.5/255); its Gaussian blur is the SVG spec's three box blurs
/// for a deviation of 2 or more, which differ from a true Gaussian by up to 3/255 at these
/// sizes (measured: 2.6/255, mean 0.43/255) — shadows are compared within 4/255, mean below
/// 0.75/255. The Gaussian's own edge (darkroom's sampled kernel against erfc) within 1.5/255.
final class GroupFilterTests: XCTestCase {
    let (w, h) = (80, 60)
    var black: Image { Image(width: w, height: h) { _, _ in Pixel(0, 0, 0, 1) } }

    /// Two rectangles that overlap in [25, 40) × [20, 30), and an ellipse that overlaps neither.
    let shapes = "{shape=rect, x=10, y=10, width=30, height=20, fill=white}, {shape=rect, x=25, y=20, width=30, height=20, fill=white}, "
        + "{shape=ellipse, center=[65,45], radii=[10,8], fill=white}"
    let svgShapes = #"<rect x="10" y="10" width="30" height="20" fill="white"/><rect x="25" y="20" width="30" height="20" fill="white"/>"#
        + #"<ellipse cx="65" cy="45" rx="10" ry="8" fill="white"/>"#

    private func group(_ parameters: String, on image: Image? = nil) throws -> [Float] {
        ShapeReferences.grey(try ShapeReferences.apply("group \(parameters) chain=[draw shapes=[\(shapes)]]", to: image ?? black))
    }

    func testGroupOpacityMatchesAnSVGGroupWithOpacity() throws {
        let ours = try group("opacity=0.5")
        let s = ShapeReferences.compare(ours, try ShapeReferences.svg(#"<g opacity="0.5">\#(svgShapes)</g>"#, width: w, height: h))
        print("group opacity 0.5 against librsvg: max \(s.max * 255)/255, mean \(s.mean * 255)/255")
        XCTAssertLessThanOrEqual(s.max, 1.01 / 255)
        XCTAssertLessThan(s.mean, 0.25 / 255)
    }

    /// The point of a transparency layer: where the shapes overlap, the group shows them once
    /// (0.5 everywhere), while an opacity per shape shows the overlap (1 − 0.5² = 0.75).
    func testOverlapsDoNotShowThroughAGroupButDoWithAnOpacityPerShape() throws {
        let grouped = try group("opacity=0.5")
        let perShape = ShapeReferences.grey(try ShapeReferences.apply(
            "draw shapes=[\(shapes.replacingOccurrences(of: "fill=white}", with: "fill=white, opacity=0.5}"))]", to: black))
        let single = 15 * w + 15, overlap = 25 * w + 30
        XCTAssertEqual(grouped[single], 0.5, accuracy: 1e-6)
        XCTAssertEqual(grouped[overlap], 0.5, accuracy: 1e-6)
        XCTAssertEqual(perShape[single], 0.5, accuracy: 1e-6)
        XCTAssertEqual(perShape[overlap], 0.75, accuracy: 1e-6)
    }

    func testShadowMatchesLibrsvgsDropShadow() throws {
        let ours = try group("opacity=0.5 shadow={offset=[5,3], blur=3, color=#ffffff80}")
        // feDropShadow as the Filter Effects spec defines it (librsvg 2.54 draws nothing for
        // the element itself): the alpha blurred, offset, flooded, under the source.
        let svg = """
            <filter id="s" x="-50%" y="-50%" width="200%" height="200%" color-interpolation-filters="sRGB">
            <feGaussianBlur in="SourceAlpha" stdDeviation="3"/><feOffset dx="5" dy="3" result="b"/>
            <feFlood flood-color="white" flood-opacity="\(128.0 / 255)"/><feComposite in2="b" operator="in" result="s"/>
            <feMerge><feMergeNode in="s"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
            <g filter="url(#s)" opacity="0.5">\(svgShapes)</g>
            """
        let s = ShapeReferences.compare(ours, try ShapeReferences.svg(svg, width: w, height: h))
        print("group shadow against librsvg: max \(s.max * 255)/255, mean \(s.mean * 255)/255")
        XCTAssertLessThanOrEqual(s.max, 4 / 255)
        XCTAssertLessThan(s.mean, 0.75 / 255)
    }

    /// A half-transparent layer over the left half casts a white shadow 10 px right: right of
    /// the layer the shadow is the layer's alpha times the Gaussian's integral,
    /// ½ · ½·erfc((x + ½ − edge) / (σ√2)), at a sigma blurred at full resolution (4) and at one
    /// blurred at reduced resolution (30, ``CastShadow/scale`` 5).
    func testShadowEdgeIsTheGaussiansIntegral() throws {
        for (sigma, width, height) in [(4.0, 120, 40), (30, 400, 400)] {
            let image = Image(width: width, height: height) { _, _ in Pixel(0, 0, 0, 1) }
            let half = width / 2, row = height / 2
            let out = ShapeReferences.grey(try ShapeReferences.apply(
                "group shadow={offset=[10,0], blur=\(sigma), color=white} chain=[draw shapes=[{shape=rect, x=0, y=0, width=\(half), height=\(height), fill=#ffffff80}]]",
                to: image))
            func shadow(_ x: Int) -> Float { Float(0.5 * 0.5 * erfc((Double(x) + 0.5 - Double(half + 10)) / (sigma * 2.0.squareRoot()))) }
            var worst: Float = 0
            for x in half..<width { worst = max(worst, abs(out[row * width + x] - shadow(x))) }
            print("shadow edge against the Gaussian, sigma \(sigma): max \(worst * 255)/255")
            XCTAssertLessThan(worst, 1.5 / 255, "sigma \(sigma)")
            // Under the half-transparent layer, the layer over its shadow: ½ + ½ · shadow.
            XCTAssertEqual(out[row * width + half - 10], 0.5 + 0.5 * shadow(half - 10), accuracy: 1.5 / 255, "sigma \(sigma)")
        }
    }

    /// `source: image` starts the layer from the image: half a sepia is the mix of the image
    /// and its sepia.
    func testSourceImageStartsTheLayerFromTheImage() throws {
        let image = testTexture(47, 31)
        let half = try ShapeReferences.apply("group source=image opacity=0.5 chain=[sepia]", to: image)
        let sepia = try CompiledChain(stages: [.point(names: ["sepia"], program: PointProgram(SepiaFilter(parameters: ResolvedParameters()).pointOperations))])
            .run(image, executor: StripExecutor()).image
        let mixed = Image(width: image.width, height: image.height) { x, y in image[x, y] * 0.5 + sepia[x, y] * 0.5 }
        XCTAssertLessThan(worstDifference(half, mixed), 0.01)
    }

    /// The blend mode applies to the layer as a whole: a grey layer multiplied onto the image.
    func testBlendModeAppliesToTheLayer() throws {
        let image = testTexture(40, 30)
        let out = try ShapeReferences.apply("group blend=multiply chain=[draw shapes=[{shape=rect, x=0, y=0, width=40, height=30, fill=#808080}]]", to: image)
        let grey = Float(128) / 255
        let expected = Image(width: 40, height: 30) { x, y in
            let p = image[x, y]
            return Pixel(p[0] * grey, p[1] * grey, p[2] * grey, p[3])
        }
        XCTAssertLessThan(worstDifference(out, expected), 0.01)
    }

    /// `random` inside the sub-chain is drawn with the job's seed, named in the parameters
    /// (`chain[0].draw.shapes[0].fill`), and the resolved chain's text reads back as the same
    /// values: what `--chain` and the report give a user to reproduce an output.
    func testRandomInsideTheGroupIsReproducibleAndPastesBack() throws {
        let text = "group opacity=random chain=[draw shapes=[{shape=rect, width=50%, height=50%, fill=random}] | gaussian_blur radius=random]"
        let spec = try ChainSyntax.parse(text, registry: .shipped)
        XCTAssertTrue(spec.usesRandom)
        let first = try spec.resolve(seed: 7)[0], again = try spec.resolve(seed: 7)[0], other = try spec.resolve(seed: 8)[0]
        XCTAssertEqual(first.parameters.entries.map(\.value), again.parameters.entries.map(\.value))
        XCTAssertNotEqual(first.parameters["chain"], other.parameters["chain"])
        XCTAssertEqual(first.parameters.randomNames, ["opacity", "chain[0].draw.shapes[0].fill", "chain[1].gaussian_blur.radius"])
        // Colours are written as 8-bit hex, numbers in full: the text reads back as the same
        // text, and the same picture within a level.
        let written = "group " + first.parameters.entries.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        let reread = try ChainSyntax.parse(written, registry: .shipped).resolve(seed: 99)[0]
        XCTAssertEqual(reread.parameters.entries.map(\.value.description), first.parameters.entries.map(\.value.description), written)
        let image = testTexture(40, 30)
        let a = try (first.filter as! any RegionFilter).apply(to: image), b = try (reread.filter as! any RegionFilter).apply(to: image)
        XCTAssertLessThanOrEqual(worstDifference(a, b), 1)
    }

    /// Captions inside a group are filled from the job's file like any caption, and an EXIF
    /// placeholder inside one makes the job read the EXIF block.
    func testPlaceholdersInsideTheGroupAreFilledPerFile() throws {
        let spec = try ChainSyntax.parse("group chain=[draw_text text=\"© {exif.Artist}, {stem}\" size=8]", registry: .shipped)
        XCTAssertTrue(spec.namesEXIF)
        let resolved = try spec.resolve(seed: 1, facts: InputFacts(["stem": "IMG_1", "exif.Artist": "Ann"]))
        guard case .chain(let steps)? = resolved[0].parameters["chain"] else { return XCTFail("no chain") }
        XCTAssertEqual(DrawTextFilter.described(steps[0].parameters).text("text"), "© Ann, IMG_1")
        XCTAssertFalse(try ChainSyntax.parse("group chain=[draw_text text=\"{stem}\"]", registry: .shipped).namesEXIF)
    }

    func testSizeChangingAndAnalysisFiltersAreRefused() {
        for (chain, expected) in [("resize width=10", "resize changes the image's size"), ("pad all=3", "pad changes"),
                                  ("rotate angle=90deg", "rotate changes"), ("trim", "trim measures its whole input")] {
            XCTAssertThrowsError(try ChainSyntax.parse("group chain=[sepia | \(chain)]", registry: .shipped)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
        // Same-size geometry keeps its meaning on the layer.
        XCTAssertNoThrow(try ChainSyntax.parse("group chain=[rotate angle=180deg | flip | transform rotate=10deg]", registry: .shipped))
    }
}
