@testable import DarkroomCore
import Foundation
import XCTest

/// The colour filters against libvips, an independent implementation of the same maths.
///
/// Images travel as float PFM, so nothing is quantised: both sides compute in 32-bit float and the
/// only expected difference is float rounding (a few ulps of values near 1, ~1e-6), hence the
/// 1e-5 tolerance unless a test says otherwise. A wrong coefficient, a transposed matrix or a
/// misplaced step shows up as differences of 1e-2 and more.
final class ColorVipsAgreementTests: XCTestCase {
    /// Float tolerance for float-vs-float comparisons (see the type's comment).
    private let floatTolerance: Float = 1e-5

    // MARK: - Single filters

    /// 8-bit data: vips `invert` computes 255 − x exactly, and on colours on the 8-bit grid ours
    /// must land on the same grid values, up to the float rounding of 1 − k/255.
    func testInvertMatchesVipsInvertOn8BitData() throws {
        let input = onEightBitGrid(TestImage.texture(width: 23, height: 17))
        let vips = try ExternalTool.vips.run(input, inputFormat: .ppm, outputFormat: .ppm, ["invert", "$IN", "$OUT"])
        XCTAssertLessThan(ImageComparison.maxDifference(try ours("invert", input), vips), 1e-6)
    }

    func testInvertMatchesVipsLinearOnFloat() throws {
        let input = TestImage.texture(width: 23, height: 17)
        try assertAgrees("invert", on: input, with: [.linear(-1, 1)])
    }

    func testGammaMatchesVipsPow() throws {
        let input = TestImage.texture(width: 23, height: 17)
        for power in [0.45, 1.8, 3] {
            try assertAgrees("gamma power=\(power)", on: input, with: [.power(power)])
        }
    }

    /// Sepia at intensity t is the matrix (1 − t)·I + t·S, S the classic sepia matrix.
    func testSepiaMatchesVipsRecombAtFullAndPartialIntensity() throws {
        let input = TestImage.texture(width: 23, height: 17)
        for t in [1.0, 0.35] {
            try assertAgrees("sepia intensity=\(t)", on: input, with: [.recomb(Self.mix(Self.identity, Self.sepia, t))])
        }
    }

    /// Saturation as a recomb towards Rec. 709 luma, then brightness and contrast as two `linear`s.
    func testColorControlsMatchesVipsRecombThenLinear() throws {
        let input = TestImage.texture(width: 23, height: 17)
        for (s, b, k) in [(0.0, 0.0, 1.0), (1.6, 0.0, 1.0), (1.0, 0.15, 1.0), (1.0, 0.0, 2.5), (0.4, -0.2, 0.6)] {
            try assertAgrees("color_controls saturation=\(s) brightness=\(b) contrast=\(k)", on: input,
                             with: Self.colorControlsSteps(saturation: s, brightness: b, contrast: k))
        }
    }

    func testHueMatchesVipsRecombWithRodriguesRotation() throws {
        let input = TestImage.texture(width: 23, height: 17)
        for degrees in [30.0, 120, -75, 200] {
            try assertAgrees("hue angle=\(degrees)deg", on: input, with: [.recomb(Self.greyAxisRotation(degrees: degrees))])
        }
    }

    /// CIColorMatrix's RGB part is vips recomb's 3×3 matrix; the bias a `linear` after it.
    func testColorMatrixMatchesVipsRecombThenLinear() throws {
        let input = TestImage.texture(width: 23, height: 17)
        let m: [Double] = [0.6, 0.3, 0.1, -0.2, 1.1, 0.1, 0.25, 0.25, 0.5]
        try assertAgrees("color_matrix r=[0.6,0.3,0.1,0] g=[-0.2,1.1,0.1,0] b=[0.25,0.25,0.5,0] bias=[0.1,0.1,0.1,0]",
                         on: input, with: [.recomb(m), .linear(1, 0.1)])
    }

    /// grayscale is recomb with every row the Rec. 709 weights.
    func testGrayscaleMatchesVipsRecombWithRec709Rows() throws {
        let input = TestImage.texture(width: 23, height: 17)
        try assertAgrees("grayscale", on: input, with: [.recomb(Self.rec709 + Self.rec709 + Self.rec709)])
    }

    // MARK: - Fusion and alpha

    /// The compiler fuses the chain into one pass (powers between fused matrices); vips runs each
    /// step on its own. Gammas come where colours are non-negative (input, and after the
    /// non-negative sepia mix), so vips' `pow` and ours (which clamps negatives to 0) see the same
    /// domain. Five steps of rounding in each implementation: still ~1e-6, tolerance 1e-5.
    func testFusedChainMatchesVipsStepByStep() throws {
        let input = TestImage.texture(width: 31, height: 19)
        try assertAgrees(Self.chain, on: input, with: Self.chainSteps)
    }

    /// On partial transparency, colour maths must run on straight colour and alpha must pass
    /// through. vips gets the straight RGB (as an opaque image); ours gets the premultiplied image.
    /// Unpremultiplying ours divides its rounding error by alpha (≥ 0.2 here, so ×5): 5e-5.
    func testChainOnPartialTransparencyWorksOnStraightColourAndKeepsAlpha() throws {
        let alphas: [Float] = [0, 0.2, 0.45, 0.7, 1]
        let straight = TestImage.texture(width: 31, height: 19)
        let input = Image(width: straight.width, height: straight.height) { x, y in
            var p = straight[x, y]
            p[3] = alphas[(x + 2 * y) % alphas.count]
            return p.premultiplied
        }
        let result = try ours(Self.chain, input)
        let vips = try runVips(Self.chainSteps, on: straight)
        XCTAssertEqual(result.pixels.map { $0[3] }, input.pixels.map { $0[3] }, "alpha passes through")
        let transparent = input.pixels.indices.filter { input.pixels[$0][3] == 0 }
        XCTAssertFalse(transparent.isEmpty)
        XCTAssertTrue(transparent.allSatisfy { result.pixels[$0] == .zero }, "transparent pixels stay transparent black")
        let worst = zip(result.pixels, vips.pixels).filter { $0.0[3] > 0 }
            .map { ImageComparison.distance($0.0.unpremultiplied, $0.1, channels: 0..<3) }.max() ?? 0
        XCTAssertLessThan(worst, 5e-5, "straight colour where alpha > 0")
    }

    /// vips' own straight-RGBA handling: it inverts the RGB of an 8-bit RGBA image (alpha kept) and
    /// flattens the result over black when writing PPM, which is our premultiplied colour. The
    /// flatten truncates to 8 bits (201 at alpha 128 gives 100, not 101), hence one step (1/255).
    func testInvertOnRGBAMatchesVipsOnStraightRGBA() throws {
        let alphas: [Float] = [0.2, 0.5, 0.8, 1].map { ($0 * 255).rounded() / 255 }
        let straight = onEightBitGrid(TestImage.texture(width: 23, height: 17))
        let input = Image(width: straight.width, height: straight.height) { x, y in
            var p = straight[x, y]
            p[3] = alphas[(x + y) % alphas.count]
            return p.premultiplied
        }
        let vips = try ExternalTool.vips.run(input, inputFormat: .pam, outputFormat: .ppm,
                                             ["linear", "--uchar", "--", "$IN", "$OUT", "-1 -1 -1 1", "255 255 255 0"])
        let result = try ours("invert", input)
        XCTAssertLessThan(ImageComparison.maxDifference(result, vips, channels: 0..<3), 1 / 255)
        XCTAssertEqual(result.pixels.map { $0[3] }, input.pixels.map { $0[3] })
    }

    // MARK: - The chain shared by the fusion and transparency tests

    private static let chain = "gamma power=0.7 | sepia intensity=0.5 | gamma power=1.6"
        + " | color_controls saturation=1.4 brightness=-0.05 contrast=1.3 | hue angle=-50deg | invert"

    private static let chainSteps: [VipsStep] = [.power(0.7), .recomb(mix(identity, sepia, 0.5)), .power(1.6)]
        + colorControlsSteps(saturation: 1.4, brightness: -0.05, contrast: 1.3)
        + [.recomb(greyAxisRotation(degrees: -50)), .linear(-1, 1)]

    // MARK: - The reference maths, written out independently of the filters

    private static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    private static let sepia: [Double] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
    private static let rec709: [Double] = [0.2126, 0.7152, 0.0722]

    private static func mix(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] {
        zip(a, b).map { $0 * (1 - t) + $1 * t }
    }

    /// Saturation s mixes each colour with its grey: s·I + (1 − s)·G, every row of G the luma
    /// weights. Brightness adds b; contrast k maps c to k·c + 0.5·(1 − k).
    private static func colorControlsSteps(saturation s: Double, brightness b: Double, contrast k: Double) -> [VipsStep] {
        let grey = (0..<3).flatMap { _ in rec709 }
        return [.recomb(mix(grey, identity, s)), .linear(1, b), .linear(k, 0.5 * (1 - k))]
    }

    /// Rodrigues' rotation about the unit grey axis u = (1, 1, 1)/√3:
    /// R = cos θ·I + sin θ·[u]ₓ + (1 − cos θ)·u uᵀ.
    private static func greyAxisRotation(degrees: Double) -> [Double] {
        let theta = degrees * .pi / 180
        let u = [Double](repeating: 1 / 3.0.squareRoot(), count: 3)
        let cross: [Double] = [0, -u[2], u[1], u[2], 0, -u[0], -u[1], u[0], 0]
        return (0..<9).map { i in
            let (row, col) = (i / 3, i % 3)
            return cos(theta) * identity[i] + sin(theta) * cross[i] + (1 - cos(theta)) * u[row] * u[col]
        }
    }

    // MARK: - Running both sides

    /// One vips operation on a float image.
    private struct VipsStep {
        var arguments: [String]
        var files: [String: String] = [:]

        /// `a·c + b` on every band. `--` keeps negative numbers from being read as options.
        static func linear(_ a: Double, _ b: Double) -> VipsStep {
            VipsStep(arguments: ["linear", "--", "$IN", "$OUT", "\(a)", "\(b)"])
        }

        static func power(_ p: Double) -> VipsStep {
            VipsStep(arguments: ["math2_const", "$IN", "$OUT", "pow", "\(p)"])
        }

        /// out = M · (r, g, b), M row-major 3×3.
        static func recomb(_ m: [Double]) -> VipsStep {
            VipsStep(arguments: ["recomb", "$IN", "$OUT", "matrix.mat"],
                     files: ["matrix.mat": vipsMatrixFile(m, size: 3, scale: 1, offset: 0)])
        }
    }

    /// The steps run one after another, each a separate vips process on float PFM.
    private func runVips(_ steps: [VipsStep], on image: Image) throws -> Image {
        try steps.reduce(image) { image, step in
            try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm, step.arguments, files: step.files)
        }
    }

    /// The chain as darkroom runs it: parsed, compiled (fused), on small parallel tiles.
    private func ours(_ chain: String, _ image: Image) throws -> Image {
        try ChainCompiler.compile(try ChainSyntax.parse(chain).resolve(seed: 1)).run(image, executor: smallTiles).image
    }

    private func assertAgrees(_ chain: String, on input: Image, with steps: [VipsStep],
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try ours(chain, input)
        let vips = try runVips(steps, on: input)
        let difference = ImageComparison.maxDifference(result, vips)
        XCTAssertLessThan(difference, floatTolerance, "\"\(chain)\" vs vips", file: file, line: line)
    }

    /// The image with every channel rounded to the 8-bit grid, so 8-bit files carry it exactly.
    private func onEightBitGrid(_ image: Image) -> Image {
        Image(width: image.width, height: image.height, pixels: image.pixels.map { ($0 * 255).rounded(.toNearestOrAwayFromZero) / 255 })
    }
}
