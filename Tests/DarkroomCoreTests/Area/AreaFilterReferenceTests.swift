@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// The area and stylise filters of issue 14 against independent references: libvips and
/// ImageMagick where they have the operation, the published formula on known pixels elsewhere.
/// 8-bit PPM goes both ways, so a tolerance of 1/255 means "the same 8-bit result".
final class AreaFilterReferenceTests: XCTestCase {
    /// The texture quantised to 8 bits, as the tools read it (so both sides start equal).
    private func eightBit(_ image: Image) -> Image {
        Image(width: image.width, height: image.height, pixels: image.pixels.map { p in
            Pixel((p[0] * 255).rounded() / 255, (p[1] * 255).rounded() / 255, (p[2] * 255).rounded() / 255, 1)
        })
    }

    /// `box_blur radius=r` is `vips conv` with a (2r + 1)² matrix of ones (vips extends the edges too).
    func testBoxBlurIsVipsConvWithAMatrixOfOnes() throws {
        let image = eightBit(TestImage.texture(width: 53, height: 41))
        for r in [1, 3] {
            let n = 2 * r + 1
            let ours = try regionFilter("box_blur radius=\(r)").apply(to: image, executor: smallTiles)
            let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm, ["conv", "$IN", "$OUT", "box.mat", "--precision", "float"],
                                                 files: ["box.mat": vipsMatrixFile([Double](repeating: 1, count: n * n), size: n,
                                                                                   scale: Double(n * n), offset: 0)])
            XCTAssertLessThan(ImageComparison.maxDifference(ours, vips, channels: 0..<3), 1e-4, "radius \(r)")
        }
    }

    /// `median radius=r` is `vips rank` over the (2r + 1)² window at its middle index: medians are
    /// input values, so the results are identical inside (vips has its own rule at the border),
    /// for the sorting network (3×3) and the sliding sorted window (5×5 to 13×13) alike.
    /// The image goes to vips as float: libvips before 8.17 gets uchar windows wider than 3×3
    /// wrong on its histogram path (libvips issue 4609, an off-by-one fixed in PR 4610).
    func testMedianIsVipsRankAtTheMiddle() throws {
        // 8-bit values (many ties) at every width, and float values (no ties) once.
        let texture = TestImage.texture(width: 47, height: 39)
        for (image, r) in [1, 2, 3, 6].map({ (eightBit(texture), $0) }) + [(texture, 2)] {
            let n = 2 * r + 1
            let ours = try regionFilter("median radius=\(r)").apply(to: image, executor: smallTiles)
            let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm,
                                                 ["rank", "$IN", "$OUT", "\(n)", "\(n)", "\(n * n / 2)"])
            XCTAssertEqual(ours.size, vips.size)
            var worst: Float = 0
            for y in r..<(image.height - r) { for x in r..<(image.width - r) {
                worst = max(worst, ImageComparison.distance(ours[x, y], vips[x, y], channels: 0..<3))
            } }
            XCTAssertLessThan(worst, 1e-6, "radius \(r)")
        }
    }

    /// Float values (after a colour step, a resize, a 16-bit source) take the 4096-bin histogram
    /// with an exact refinement: still vips rank's value, at large radii, where many values
    /// share the median's bin (differences below a bin's width) and where values lie outside
    /// 0…1 (the end bins).
    func testFloatMedianIsExactlyVipsRank() throws {
        let texture = TestImage.texture(width: 61, height: 43)
        let fine = Image(width: 61, height: 43) { x, y in
            let p = texture[x, y]
            return Pixel(0.5 + p[0] * 1e-4, 0.25 + p[2] * 3e-4, p[1], 1)
        }
        let wide = Image(width: 61, height: 43) { x, y in
            let p = texture[x, y]
            return Pixel(p[0] * 1.6 - 0.3, p[1] * 2, p[2] - 0.5, 1)
        }
        for (name, image, r) in [("texture", texture, 5), ("texture", texture, 10), ("fine", fine, 4), ("outside 0…1", wide, 3)] {
            XCTAssertEqual(try medianMismatchesAgainstVipsRank(image, radius: r), 0, "\(name), radius \(r)")
        }
    }

    /// A speck is removed and an edge kept where a blur would smear it.
    func testMedianRemovesSpecksAndKeepsEdges() throws {
        var image = Image(width: 20, height: 10) { x, _ in x < 10 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }
        image[4, 4] = Pixel(1, 1, 1, 1)
        let out = try regionFilter("median").apply(to: image, executor: smallTiles)
        XCTAssertEqual(out[4, 4], Pixel(0, 0, 0, 1))
        XCTAssertEqual(out[9, 5], Pixel(0, 0, 0, 1))
        XCTAssertEqual(out[10, 5], Pixel(1, 1, 1, 1))
    }

    /// `unsharp_mask` against ImageMagick's `-unsharp 0x{sigma}+{amount}+0` (the same definition;
    /// ImageMagick cuts its Gaussian where it wants, so a few levels may differ at edges).
    func testUnsharpMaskAgreesWithImageMagick() throws {
        let image = eightBit(TestImage.texture(width: 61, height: 45))
        for (sigma, amount) in [(1.5, 0.8), (3.0, 0.5)] {
            let ours = try regionFilter("unsharp_mask radius=\(sigma) intensity=\(amount)").apply(to: image, executor: smallTiles)
            let magick = try ExternalTool.convert.run(image, ["$IN", "-unsharp", "0x\(sigma)+\(amount)+0", "$OUT"])
            let clamped = Image(width: ours.width, height: ours.height,
                                pixels: ours.pixels.map { pointwiseMin(pointwiseMax($0, .zero), Pixel(repeating: 1)) })
            XCTAssertGreaterThan(psnr(clamped, magick), 40, "sigma \(sigma) amount \(amount)")
        }
    }

    /// ImageMagick leaves a channel alone where twice its difference from the blur is below the
    /// threshold; darkroom where the difference is: IM's t is darkroom's t / 2.
    func testUnsharpThresholdLeavesSmallDifferencesAlone() throws {
        let image = eightBit(TestImage.texture(width: 40, height: 30))
        let ours = try regionFilter("unsharp_mask radius=2 intensity=1 threshold=0.05").apply(to: image, executor: smallTiles)
        let magick = try ExternalTool.convert.run(image, ["$IN", "-unsharp", "0x2+1+0.1", "$OUT"])
        let clamped = Image(width: ours.width, height: ours.height,
                            pixels: ours.pixels.map { pointwiseMin(pointwiseMax($0, .zero), Pixel(repeating: 1)) })
        XCTAssertGreaterThan(psnr(clamped, magick), 35)
        let flat = try regionFilter("unsharp_mask radius=2 intensity=1 threshold=0.5").apply(to: image, executor: smallTiles)
        XCTAssertEqual(flat, image, "no difference reaches 0.5: nothing changes")
    }

    /// CISharpenLuminance: the change is grey (R, G and B move alike: no colour fringes) and is
    /// `sharpness × Y(in − blur(in))`.
    func testSharpenChangesLuminanceOnly() throws {
        let image = TestImage.texture(width: 37, height: 29)
        let out = try regionFilter("sharpen sharpness=0.8 radius=1.5").apply(to: image, executor: smallTiles)
        let blurred = try regionFilter("gaussian_blur radius=1.5").apply(to: image)
        for i in image.pixels.indices {
            let d = out.pixels[i] - image.pixels[i]
            let y = 0.8 * ((image.pixels[i] - blurred.pixels[i]) * Pixel(0.2126, 0.7152, 0.0722, 0)).sum()
            for c in 0..<3 { XCTAssertEqual(d[c], y, accuracy: 1e-5) }
            XCTAssertEqual(d[3], 0)
        }
    }

    /// `emboss` is `vips conv` with the identity plus the relief matrix.
    func testEmbossIsVipsConvWithTheReliefMatrix() throws {
        let image = eightBit(TestImage.texture(width: 33, height: 27))
        let ours = try regionFilter("emboss strength=0.5").apply(to: image, executor: smallTiles)
        let matrix = [-1, -0.5, 0, -0.5, 1, 0.5, 0, 0.5, 1]
        let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm, ["conv", "$IN", "$OUT", "e.mat", "--precision", "float"],
                                             files: ["e.mat": vipsMatrixFile(matrix, size: 3, scale: 1, offset: 0)])
        XCTAssertLessThan(ImageComparison.maxDifference(ours, vips, channels: 0..<3), 1e-4)
    }

    /// `edges` is the Sobel magnitude: on a vertical step from 0 to 1, |gx| = 4 beside the step.
    func testEdgesIsTheSobelMagnitude() throws {
        let step = Image(width: 10, height: 6) { x, _ in x < 5 ? Pixel(0, 0, 0, 1) : Pixel(0.25, 0.25, 0.25, 1) }
        let out = try regionFilter("edges intensity=0.5").apply(to: step, executor: smallTiles)
        XCTAssertEqual(out[4, 3][0], 0.5 * 4 * 0.25, accuracy: 1e-6)
        XCTAssertEqual(out[5, 3][0], 0.5 * 4 * 0.25, accuracy: 1e-6)
        XCTAssertEqual(out[2, 3][0], 0)
        XCTAssertEqual(out[8, 3], Pixel(0, 0, 0, 1), "flat turns black, alpha kept")
    }

    /// The documented vignette formulas at known places: the centre keeps its light, the
    /// corners lose `intensity` of it (vignette at radius 1), and vignette_effect is flat inside
    /// radius·(1 − falloff) and fully dark past radius.
    func testVignettesFollowTheirFormulas() throws {
        let white = Image(width: 41, height: 41, fill: Pixel(1, 1, 1, 1))
        let v = try regionFilter("vignette radius=1 intensity=0.6").apply(to: white, executor: smallTiles)
        XCTAssertEqual(v[20, 20][0], 1, accuracy: 1e-3)
        // Pixel centre (0.5, 0.5) is at d = 20·√2 of D = 20.5·√2 from the centre.
        XCTAssertEqual(v[0, 0][0], Float(1 - 0.6 * pow(20 / 20.5, 2)), accuracy: 1e-5)
        XCTAssertEqual(v[0, 0][3], 1)
        let e = try regionFilter("vignette_effect center=[20.5,20.5] radius=10 intensity=0.8 falloff=0.5").apply(to: white)
        XCTAssertEqual(e[22, 20][0], 1, "inside radius·(1 − falloff) = 5")
        XCTAssertEqual(e[40, 20][0], 0.2, accuracy: 1e-6, "past the radius: 1 − intensity")
        XCTAssertEqual(e[28, 20][0], Float(1 - 0.8 * (3 * 0.6 * 0.6 - 2 * 0.6 * 0.6 * 0.6)), accuracy: 1e-5, "d = 8: smoothstep(5, 10, 8)")
    }

    /// Each cell is one colour, that of the pixel at its centre; one cell is centred on `center`.
    func testPixellateFillsCellsWithTheirCentrePixel() throws {
        let image = TestImage.texture(width: 30, height: 20)
        let out = try regionFilter("pixellate scale=5 center=[15.5,10.5]").apply(to: image, executor: smallTiles)
        // The cell centred on pixel (15, 10)'s centre covers x 13…17, y 8…12.
        for y in 8...12 { for x in 13...17 { XCTAssertEqual(out[x, y], image[15, 10]) } }
        XCTAssertEqual(out[12, 10], image[10, 10])
    }

    /// The bilateral filter smooths grain much more than it softens an edge.
    func testNoiseReductionSmoothsGrainAndKeepsEdges() throws {
        var rng = SeededGenerator(seed: 3)
        let noisy = Image(width: 40, height: 30) { x, _ in
            let base: Float = x < 20 ? 0.2 : 0.8
            let n = Float.random(in: -0.04...0.04, using: &rng)
            return Pixel(base + n, base + n, base + n, 1)
        }
        let out = try regionFilter("noise_reduction noise_level=0.1 radius=2").apply(to: noisy, executor: smallTiles)
        func spread(_ image: Image, _ xs: ClosedRange<Int>) -> Float {
            let values = xs.flatMap { x in (5..<25).map { image[x, $0][0] } }
            let mean = values.reduce(0, +) / Float(values.count)
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(values.count)).squareRoot()
        }
        XCTAssertLessThan(spread(out, 5...14), spread(noisy, 5...14) / 2, "grain halved at least")
        XCTAssertGreaterThan(out[20, 15][0] - out[19, 15][0], 0.5, "the 0.6 step stays a step")
        let blurred = try regionFilter("gaussian_blur radius=2").apply(to: noisy)
        XCTAssertLessThan(blurred[20, 15][0] - blurred[19, 15][0], 0.3, "where a blur of the same radius smears it")
    }
}
