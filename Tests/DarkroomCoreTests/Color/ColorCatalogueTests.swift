import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomCore

/// The colour filters of the catalogue against the Core Image (or ImageMagick) formula, written
/// out here on known pixels independently of the filters. Tolerance 1e-5 (float rounding) unless
/// a test says why it needs more.
final class ColorCatalogueTests: XCTestCase {
    private func run(_ chain: String, on colors: [Pixel]) throws -> [Pixel] {
        let spec = try ChainSyntax.parse(chain, registry: .standard, assets: TestAssets())
        let image = Image(width: colors.count, height: 1, pixels: colors.map(\.premultiplied))
        let out = try ChainCompiler.compile(try spec.resolve(seed: 1)).run(image, executor: StripExecutor(concurrency: 1)).image
        return out.pixels.map(\.unpremultiplied)
    }

    private func assertClose(_ a: Pixel, _ b: Pixel, accuracy: Float = 1e-5, _ what: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        for i in 0..<4 { XCTAssertEqual(a[i], b[i], accuracy: accuracy, "\(what) channel \(i) of \(a) vs \(b)", file: file, line: line) }
    }

    /// IEC 61966-2-1, written out again.
    private func linear(_ v: Float) -> Float { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    private func encoded(_ v: Float) -> Float { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }
    private let colours = [Pixel(0.2, 0.5, 0.9, 1), Pixel(0.8, 0.3, 0.1, 0.5), Pixel(0.02, 0.6, 0.45, 1), Pixel(0.5, 0.5, 0.5, 1)]

    func testExposureScalesLinearLightByPowersOfTwo() throws {
        for ev: Float in [1, -1.5] {
            let out = try run("exposure ev=\(ev)", on: colours)
            for (c, o) in zip(colours, out) {
                let e = { (v: Float) in self.encoded(self.linear(v) * pow(2, ev)) }
                assertClose(o, Pixel(e(c[0]), e(c[1]), e(c[2]), c[3]), "ev \(ev)")
            }
        }
    }

    func testMonochromeOverlaysTheColourOnLuma() throws {
        let color = Pixel(0.6, 0.45, 0.3, 0)
        for t: Float in [1, 0.4] {
            let out = try run("monochrome intensity=\(t)", on: colours)
            for (c, o) in zip(colours, out) {
                let l = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
                var expected = c
                for i in 0..<3 {
                    let overlay = l < 0.5 ? 2 * l * color[i] : 1 - 2 * (1 - l) * (1 - color[i])
                    expected[i] = c[i] + (overlay - c[i]) * t
                }
                assertClose(o, expected, "intensity \(t)")
            }
        }
        // Black stays black and white white, whatever the colour.
        let ends = try run("monochrome color=#ff0000", on: [Pixel(0, 0, 0, 1), Pixel(1, 1, 1, 1)])
        assertClose(ends[0], Pixel(0, 0, 0, 1))
        assertClose(ends[1], Pixel(1, 1, 1, 1))
    }

    func testColorMatrixIsCIColorMatrix() throws {
        let out = try run("color_matrix r=[0.5,0.2,0.1,0.1] g=[0,1,0,0] b=[0.3,0.3,0.3,0] a=[0,0,0,0.5] bias=[0.05,0,-0.1,0.25]", on: colours)
        for (c, o) in zip(colours, out) {
            let r = 0.5 * c[0] + 0.2 * c[1] + 0.1 * c[2] + 0.1 * c[3] + 0.05
            let b = 0.3 * (c[0] + c[1] + c[2]) - 0.1
            assertClose(o, Pixel(r, c[1], b, 0.5 * c[3] + 0.25))
        }
        XCTAssertEqual(buildError("color_matrix r=[1,0,0]"), "color_matrix: r: expected four numbers (for r, g, b, a), got [1, 0, 0]")
    }

    func testGrayscaleIsRec709Luma() throws {
        for (c, o) in zip(colours, try run("grayscale", on: colours)) {
            let l = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
            assertClose(o, Pixel(l, l, l, c[3]))
        }
    }

    func testThresholdIsOneAboveAndZeroAtOrBelow() throws {
        let out = try run("threshold threshold=0.5", on: [Pixel(0.5, 0.51, 0.2, 1), Pixel(0.9, 0.1, 0.7, 0.5)])
        assertClose(out[0], Pixel(0, 1, 0, 1))
        assertClose(out[1], Pixel(1, 0, 1, 0.5))
    }

    /// ImageMagick's -level: ((c − black)/(white − black))^(1/gamma), clipped to 0…1.
    func testLevelsOnAllChannelsAndOnOne() throws {
        let f = { (v: Float) -> Float in pow(min(max((v - 0.1) / 0.7, 0), 1), 1 / 1.6) }
        for (c, o) in zip(colours, try run("levels black=0.1 white=0.8 gamma=1.6", on: colours)) {
            assertClose(o, Pixel(f(c[0]), f(c[1]), f(c[2]), c[3]))
        }
        for (c, o) in zip(colours, try run("levels black=0.1 white=0.8 gamma=1.6 channel=green", on: colours)) {
            assertClose(o, Pixel(c[0], f(c[1]), c[2], c[3]))
        }
        XCTAssertEqual(buildError("levels black=0.6 white=0.4"), "levels: black (0.6) must be below white (0.4)")
    }

    /// The curve passes through its points, stays between neighbouring values (no overshoot) and
    /// reproduces a straight line exactly.
    func testCurvesPassThroughThePointsWithoutOvershoot() throws {
        let points: [(Float, Float)] = [(0, 0), (0.25, 0.1), (0.5, 0.8), (0.75, 0.85), (1, 1)]
        let text = "curves points=[" + points.map { "\($0.0),\($0.1)" }.joined(separator: ",") + "]"
        let out = try run(text, on: points.map { Pixel($0.0, $0.0, $0.0, 1) })
        for (p, o) in zip(points, out) { assertClose(o, Pixel(p.1, p.1, p.1, 1), "at \(p.0)") }
        let ramp = (0...100).map { Float($0) / 100 }
        let curve = try run(text, on: ramp.map { Pixel($0, $0, $0, 1) }).map { $0[0] }
        XCTAssertTrue(zip(curve, curve.dropFirst()).allSatisfy { $0 <= $1 + 1e-6 }, "rising points give a rising curve")
        for (x, y) in zip(ramp, curve) where x > 0.5 && x < 0.75 { XCTAssertTrue(y >= 0.8 - 1e-6 && y <= 0.85 + 1e-6, "\(x) → \(y)") }
        let line = try run("curves points=[0,0.2,0.5,0.5,1,0.8] channel=red", on: colours)
        for (c, o) in zip(colours, line) { assertClose(o, Pixel(0.2 + 0.6 * c[0], c[1], c[2], c[3])) }
        XCTAssertNotNil(buildError("curves points=[0,0,0.5,0.5,0.4,1]"))
        XCTAssertNotNil(buildError("curves points=[0,0,1]"))
    }

    /// The curve is SciPy's PchipInterpolator (Fritsch–Butland slopes, shape-preserving ends), an
    /// independent implementation of the same definition: agreement to float rounding (1e-5),
    /// uneven spacing and a falling stretch included.
    func testCurvesAgreeWithSciPyPchip() throws {
        let xs: [Double] = [0, 0.1, 0.35, 0.5, 0.8, 1], ys: [Double] = [0.05, 0.3, 0.2, 0.6, 0.62, 0.9]
        let samples = (0...64).map { Double($0) / 64 }
        let script = """
            from scipy.interpolate import PchipInterpolator
            f = PchipInterpolator(\(xs), \(ys))
            print(" ".join(repr(float(f(x))) for x in \(samples)))
            """
        let reference = try ReferenceTool.output(("python3", "python3-scipy"), ["-c", script])
            .split(separator: " ").map { Float($0.trimmingCharacters(in: .whitespacesAndNewlines))! }
        let text = "curves points=[" + zip(xs, ys).map { "\($0),\($1)" }.joined(separator: ",") + "]"
        let out = try run(text, on: samples.map { Pixel(Float($0), Float($0), Float($0), 1) })
        XCTAssertEqual(reference.count, out.count)
        for (r, o) in zip(reference, out) { XCTAssertEqual(o[0], r, accuracy: 1e-5) }
    }

    /// GPUImage's vibrance kernel (CIVibrance's): c + (mx − c)·(mx − avg)·(−3·amount).
    func testVibranceMovesColoursByTheirSaturationAndKeepsGreys() throws {
        for amount: Float in [0.7, -0.5] {
            for (c, o) in zip(colours, try run("vibrance amount=\(amount)", on: colours)) {
                let mx = max(c[0], c[1], c[2]), avg = (c[0] + c[1] + c[2]) / 3
                let t = (mx - avg) * -3 * amount
                assertClose(o, Pixel(c[0] + (mx - c[0]) * t, c[1] + (mx - c[1]) * t, c[2] + (mx - c[2]) * t, c[3]))
            }
        }
    }

    /// White becomes the colour; every colour is scaled by it in linear light.
    func testWhitePointMapsWhiteToTheColour() throws {
        let target = Pixel(1, 0.8, 0.6, 1)
        let out = try run("white_point color=[1,0.8,0.6]", on: colours + [Pixel(1, 1, 1, 1)])
        assertClose(out.last!, target, accuracy: 2e-5)
        for (c, o) in zip(colours, out) {
            let e = { (i: Int) in self.encoded(self.linear(c[i]) * self.linear(target[i])) }
            assertClose(o, Pixel(e(0), e(1), e(2), c[3]))
        }
    }

    /// The colour of CIE illuminant A (a 2856 K black body, xy 0.44757, 0.40745, CIE 15:2004) under
    /// neutral 2856 K becomes the colour of a 6500 K black body (xy 0.3135, 0.3237, from Planck's
    /// law) at the same luminance, and equal neutral and target leave every colour alone. The
    /// tolerance, 3e-3, covers the cubic fit to the locus (~1e-4 in xy).
    func testTemperatureAndTintAdaptsTheNeutralsLightToTheTargets() throws {
        func srgb(x: Double, y: Double, luminance: Double) -> Pixel {
            let xyz = [x / y * luminance, luminance, (1 - x - y) / y * luminance]
            let m: [Double] = [3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108, 0.0415560, 0.0556434, -0.2040259, 1.0572252]
            let rgb = (0..<3).map { i in Float(m[3 * i] * xyz[0] + m[3 * i + 1] * xyz[1] + m[3 * i + 2] * xyz[2]) }
            return Pixel(encoded(rgb[0]), encoded(rgb[1]), encoded(rgb[2]), 1)
        }
        let tungsten = srgb(x: 0.44757, y: 0.40745, luminance: 0.3)
        let out = try run("temperature_tint temperature=2856 target_temperature=6500", on: [tungsten])
        assertClose(out[0], srgb(x: 0.3135, y: 0.3237, luminance: 0.3), accuracy: 3e-3)
        // The other way round it warms: blue loses to red.
        let warmer = try run("temperature_tint temperature=9000", on: [Pixel(0.5, 0.5, 0.5, 1)])[0]
        XCTAssertGreaterThan(warmer[0], warmer[2] + 0.05)
        let magenta = try run("temperature_tint target_tint=40", on: [Pixel(0.5, 0.5, 0.5, 1)])[0]
        XCTAssertLessThan(magenta[1], min(magenta[0], magenta[2]), "positive tint is magenta")
        for (c, o) in zip(colours, try run("temperature_tint temperature=4000 tint=10 target_temperature=4000 target_tint=10", on: colours)) {
            assertClose(o, c)
        }
    }

    /// Each style is its documented matrix then curve, computed here from the table in docs/chains.md.
    func testPhotoEffectStylesFollowTheirDocumentedMatrixAndCurve() throws {
        func luma(_ c: Pixel) -> Float { 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] }
        func saturate(_ c: Pixel, _ s: Float) -> Pixel {
            let l = luma(c)
            return Pixel(l + s * (c[0] - l), l + s * (c[1] - l), l + s * (c[2] - l), c[3])
        }
        func s(_ k: Float) -> (Float) -> Float { { v in let c = min(max(v, 0), 1); return c + k * (c * c * (3 - 2 * c) - c) } }
        func lift(_ b: Float, _ w: Float) -> (Float) -> Float { { b + (w - b) * $0 } }
        func curve(_ p: Pixel, _ f: (Float) -> Float) -> Pixel { Pixel(f(p[0]), f(p[1]), f(p[2]), p[3]) }
        func cast(_ p: Pixel, _ r: Float, _ g: Float, _ b: Float) -> Pixel { Pixel(p[0] * r, p[1] * g, p[2] * b, p[3]) }
        let expected: [String: (Pixel) -> Pixel] = [
            "chrome": { curve(saturate($0, 1.3), s(0.25)) },
            "fade": { curve(saturate($0, 0.6), lift(0.10, 0.95)) },
            "instant": { curve(curve(cast(saturate($0, 0.8), 1.06, 1, 0.88), lift(0.06, 0.97)), s(0.15)) },
            "mono": { let l = luma($0) * 0.85 + 0.075; return Pixel(l, l, l, $0[3]) },
            "noir": { let l = s(0.8)(luma($0)); return Pixel(l, l, l, $0[3]) },
            "process": { curve(cast($0, 0.92, 1.02, 1.08), s(0.2)) },
            "tonal": { let l = luma($0); return Pixel(l, l, l, $0[3]) },
            "transfer": { curve(cast($0, 1.08, 1.02, 0.88), lift(0.04, 1)) },
        ]
        XCTAssertEqual(Set(expected.keys), Set(PhotoEffectFilter.Style.allCases.map(\.rawValue)))
        for (style, f) in expected {
            for (c, o) in zip(colours, try run("photo_effect style=\(style)", on: colours)) { assertClose(o, f(c), style) }
        }
    }
}
