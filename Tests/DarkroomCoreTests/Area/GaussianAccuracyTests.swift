@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// The blur shared by gaussian_blur, unsharp_mask, sharpen, drop_shadow, group shadows and
/// clip feathers against the exact Gaussian, computed here in double with a kernel cut at 6σ
/// (where less than 2e-9 of it is left): at least 45 dB (PSNR, full scale 1) on a photo-like
/// image and on hard edges, at small and large sigma, on both sides of the switch from sampled
/// taps to boxes (sigma 16 for colour, 4 for a shadow's alpha).
final class GaussianAccuracyTests: XCTestCase {
    /// Separable convolution with the edges extended (what the filter documents), in double.
    /// With `transparentEdges`, pixels past the edges are transparent black instead (a shadow's
    /// surroundings).
    static func exactGaussian(_ image: Image, sigma: Double, transparentEdges: Bool = false) -> Image {
        let h = Int((6 * sigma).rounded(.up))
        var w = (-h...h).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = w.reduce(0, +)
        w = w.map { $0 / total }
        let width = image.width, height = image.height
        var plane = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height { for x in 0..<width { for c in 0..<4 { plane[(y * width + x) * 4 + c] = Double(image[x, y][c]) } } }
        var across = [Double](repeating: 0, count: plane.count)
        for y in 0..<height {
            for x in 0..<width {
                var s = (0.0, 0.0, 0.0, 0.0)
                for k in -h...h {
                    if transparentEdges, x + k < 0 || x + k >= width { continue }
                    let i = (y * width + min(max(x + k, 0), width - 1)) * 4, wk = w[k + h]
                    s.0 += wk * plane[i]; s.1 += wk * plane[i + 1]; s.2 += wk * plane[i + 2]; s.3 += wk * plane[i + 3]
                }
                let o = (y * width + x) * 4
                (across[o], across[o + 1], across[o + 2], across[o + 3]) = s
            }
        }
        return Image(width: width, height: height) { x, y in
            var s = (0.0, 0.0, 0.0, 0.0)
            for k in -h...h {
                if transparentEdges, y + k < 0 || y + k >= height { continue }
                let i = (min(max(y + k, 0), height - 1) * width + x) * 4, wk = w[k + h]
                s.0 += wk * across[i]; s.1 += wk * across[i + 1]; s.2 += wk * across[i + 2]; s.3 += wk * across[i + 3]
            }
            return Pixel(Float(s.0), Float(s.1), Float(s.2), Float(s.3))
        }
    }

    /// Photo-like: waves of every scale with amplitude falling as 1/frequency (a natural image's
    /// spectrum), different in each channel.
    static func photoLike(width: Int, height: Int) -> Image {
        var waves: [(fx: Float, fy: Float, phase: Float, amplitude: Float)] = []
        var seed: UInt32 = 12345
        func next() -> Float {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(seed >> 8) / Float(1 << 24)
        }
        for _ in 0..<48 {
            let f = 0.002 * pow(200, next()), angle = 2 * Float.pi * next()
            waves.append((f * cos(angle), f * sin(angle), 2 * Float.pi * next(), 0.02 / (f * 40).squareRoot()))
        }
        return Image(width: width, height: height) { x, y in
            var v = Pixel(0.5, 0.45, 0.4, 1)
            for (i, w) in waves.enumerated() {
                let s = w.amplitude * sin(2 * Float.pi * (w.fx * Float(x) + w.fy * Float(y)) + w.phase)
                v[i % 3] += s
            }
            return v
        }
    }

    /// Hard edges: a checkerboard whose squares are 2σ wide (the worst case for a box cascade:
    /// every pixel near an edge) with a transparent quarter, so alpha has edges too.
    static func hardEdges(width: Int, height: Int, cell: Int) -> Image {
        Image(width: width, height: height) { x, y in
            let on = (x / cell + y / cell) % 2 == 0
            let p = on ? Pixel(1, 0.8, 0.1, 1) : Pixel(0.05, 0.2, 0.9, 1)
            return x > width * 3 / 4 && y > height / 2 ? .zero : p
        }
    }

    private func check(sigma: Double, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let filter = try regionFilter("gaussian_blur radius=\(sigma)")
        for (name, image) in [("photo", Self.photoLike(width: width, height: height)),
                              ("edges", Self.hardEdges(width: width, height: height, cell: max(2, Int(2 * sigma))))] {
            let ours = try filter.apply(to: image, executor: smallTiles)
            let exact = Self.exactGaussian(image, sigma: sigma)
            let dB = psnr(ours, exact)
            // Alpha too (psnr reads colour only).
            let alpha = ImageComparison.maxDifference(ours, exact, channels: 3..<4)
            XCTAssertGreaterThanOrEqual(dB, 45, "\(name), sigma \(sigma)", file: file, line: line)
            XCTAssertLessThan(alpha, 0.02, "\(name), sigma \(sigma): alpha", file: file, line: line)
        }
    }

    func testSmallSigmaIsTheSampledKernel() throws {
        try check(sigma: 1, width: 40, height: 30)
        try check(sigma: 3.9, width: 64, height: 48)
        try check(sigma: 11.5, width: 120, height: 90)
    }

    func testBoxesFromTheSwitchOn() throws {
        XCTAssertEqual(GaussianBlur.colourBoxCascadeSigma, 16)
        try check(sigma: 16, width: 110, height: 80)
        try check(sigma: 19.5, width: 120, height: 90)
    }

    func testLargeSigma() throws {
        try check(sigma: 30, width: 170, height: 120)
        // The image smaller than the blur's reach: the extended edges weigh in everywhere.
        try check(sigma: 70, width: 150, height: 110)
    }

    /// unsharp_mask on the boxes is the image plus intensity times its difference from the exact
    /// Gaussian, at a large radius, on a photo and on hard edges.
    func testUnsharpMaskAtALargeRadiusIsTheExactFormula() throws {
        let sigma = 40.0, width = 150, height = 110
        let filter = try regionFilter("unsharp_mask radius=\(sigma) intensity=1")
        for (name, image) in [("photo", Self.photoLike(width: width, height: height)),
                              ("edges", Self.hardEdges(width: width, height: height, cell: 80))] {
            let blurred = Self.exactGaussian(image, sigma: sigma)
            var expected = image
            for y in 0..<height {
                for x in 0..<width {
                    var p = image[x, y] + (image[x, y] - blurred[x, y])
                    p[3] = image[x, y][3] >= 1 ? 1 : min(max(p[3], 0), 1)
                    expected[x, y] = p
                }
            }
            let ours = try filter.apply(to: image, executor: smallTiles)
            XCTAssertGreaterThanOrEqual(psnr(ours, expected), 45, name)
            XCTAssertLessThan(ImageComparison.maxDifference(ours, expected, channels: 3..<4), 0.02, "\(name): alpha")
        }
    }

    /// A band computed on its own reads the blur's reach above and below it again: the pipeline
    /// makes its bands as tall as that reach (within a memory bound), and leaves short-reaching
    /// chains at the height asked for.
    func testBandsAreAsTallAsTheBlursReach() throws {
        func pipeline(_ text: String, width: Int = 3000) throws -> Pipeline {
            let chain = ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1))
            return Pipeline(chain: chain, source: .init(size: Size(width: width, height: 2000), isOpaque: true, isEightBit: true),
                            bandHeight: 16)
        }
        let reach = GaussianBlur(sigma: 11).halo
        let wide = try pipeline("gaussian_blur radius=11").bandHeight
        XCTAssertGreaterThanOrEqual(wide, reach)
        XCTAssertLessThan(wide, reach + 16)
        // From sigma 12 the blur runs over cells (ReducedGaussian), whose reach is short: at sigma
        // 60, 8-px cells, about 28 cells each side.
        XCTAssertLessThanOrEqual(try pipeline("gaussian_blur radius=60").bandHeight, 32)
        XCTAssertEqual(try pipeline("sharpen | gaussian_blur radius=2 | median radius=3").bandHeight, 16)
        // A sampled blur reaching past the band but not twice past it keeps the band asked for
        // (its cost is per output row); running sums (a shadow's boxes) widen from any reach past it.
        XCTAssertGreaterThan(GaussianBlur(sigma: 5).halo, 16)
        XCTAssertEqual(try pipeline("gaussian_blur radius=5").bandHeight, 16)
        let shadow = try pipeline("drop_shadow blur=6").bandHeight
        XCTAssertGreaterThan(shadow, 16)
        XCTAssertGreaterThanOrEqual(shadow, GaussianBlur(sigma: 6).halo)
        // Very wide: the band stays within its memory bound (16 MiB of float a band).
        let huge = try pipeline("unsharp_mask radius=100", width: 40000).bandHeight
        XCTAssertLessThanOrEqual(huge * 40000 * 16, 16 << 20)
        XCTAssertGreaterThanOrEqual(huge, 16)
    }

    /// A shadow blurs its alpha alone and tints it: where the image is transparent, the output
    /// is the colour times the exact Gaussian of the alpha (transparent past the edges).
    func testShadowIsTheTintedGaussianOfTheAlpha() throws {
        for sigma in [2.5, 6, 30] {
            let width = 150, height = 110
            let image = Image(width: width, height: height) { x, y in
                let dx = Float(x - 70), dy = Float(y - 50)
                return dx * dx / 900 + dy * dy / 400 < 1 || (x > 110 && x < 130 && y < 90) ? Pixel(0.2, 0.3, 0.4, 1) : .zero
            }
            let out = try regionFilter("drop_shadow offset=[0,0] blur=\(sigma) color=[0.2,0.8,0.4,0.5]").apply(to: image, executor: smallTiles)
            let alpha = Self.exactGaussian(Image(width: width, height: height) { x, y in Pixel(repeating: image[x, y][3]) },
                                           sigma: sigma, transparentEdges: true)
            let tint = Pixel(0.1, 0.4, 0.2, 0.5)
            var expected = out, got = out
            for y in 0..<height {
                for x in 0..<width where image[x, y][3] == 0 {
                    expected[x, y] = tint * alpha[x, y][3]
                    got[x, y] = out[x, y]
                }
                for x in 0..<width where image[x, y][3] != 0 { expected[x, y] = .zero; got[x, y] = .zero }
            }
            XCTAssertGreaterThanOrEqual(psnr(got, expected), 45, "sigma \(sigma)")
            XCTAssertLessThan(ImageComparison.maxDifference(got, expected), 0.01, "sigma \(sigma)")
        }
    }

    /// The boxes' variance is sigma² exactly, so the blur is as wide as the one it replaces.
    func testBoxesKeepTheWidth() throws {
        let sigma = 25.0, n = 301
        var image = Image(width: n, height: 1, fill: Pixel(0, 0, 0, 1))
        image[n / 2, 0] = Pixel(1, 1, 1, 1)
        let out = try regionFilter("gaussian_blur radius=\(sigma)").apply(to: image, executor: smallTiles)
        var mass = 0.0, variance = 0.0
        for x in 0..<n {
            let v = Double(out[x, 0][0]), d = Double(x - n / 2)
            mass += v
            variance += v * d * d
        }
        XCTAssertEqual(mass, 1, accuracy: 1e-4)
        XCTAssertEqual((variance / mass).squareRoot(), sigma, accuracy: 0.01 * sigma)
    }

    /// A flat image stays flat, and an opaque one opaque, at any sigma: within 1e-5 (the sampled
    /// kernel's weights, normalised in float, sum to 1 within that at sigma 300), far inside
    /// one 16-bit step.
    func testFlatAndOpaqueStayExact() throws {
        let grey = Pixel(0.25, 0.5, 0.75, 1)
        for sigma in [4.0, 30, 300] {
            let out = try regionFilter("gaussian_blur radius=\(sigma)")
                .apply(to: Image(width: 23, height: 17, fill: grey), executor: smallTiles)
            for p in out.pixels {
                XCTAssertLessThan(ImageComparison.distance(p, grey), 1e-5, "sigma \(sigma)")
                XCTAssertEqual(p[3], 1, accuracy: 1e-5, "sigma \(sigma)")
            }
        }
    }

    /// A band, a strip, a thread or a starting row cannot change a pixel: the sums are exact.
    func testBandHeightsAndThreadsNeverChangeAPixel() throws {
        let image = Self.photoLike(width: 90, height: 70)
        for text in ["gaussian_blur radius=9", "drop_shadow blur=12 canvas=grow", "unsharp_mask radius=20 intensity=2"] {
            let filter = try regionFilter(text)
            let whole = try filter.apply(to: image, executor: StripExecutor(bandHeight: 4096, concurrency: 1))
            for executor in [StripExecutor(bandHeight: 1, concurrency: 2), StripExecutor(bandHeight: 13, concurrency: 3)] {
                XCTAssertEqual(try filter.apply(to: image, executor: executor), whole, "\(text), band \(executor.bandHeight)")
            }
        }
    }
}
