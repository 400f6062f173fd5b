@testable import DarkroomCore
import Foundation
import XCTest

/// `noise_reduction` against the bilateral formula evaluated independently here, in double
/// precision with Foundation's exp (edges extended), for each of its methods: the direct sums
/// (small windows with a small noise level), the range levels (the rest below radius 4) and the
/// range levels on a coarse spatial grid (from radius 4).
final class NoiseReductionTests: XCTestCase {
    /// Each channel's weighted mean: a neighbour weighs exp(−(dx² + dy²) / 2·radius²) ×
    /// exp(−Δ² / 2σ²), Δ its difference from the centre in that channel and σ = level/√3
    /// (`rgbDistance`: Δ² the squared RGB distance and σ = level, the same weight on all four
    /// channels: the filter before it went channel by channel). Four doubles a pixel.
    static func reference(_ image: Image, level: Double, radius: Double, rgbDistance: Bool = false) -> [Double] {
        let reach = Int((2 * radius).rounded(.up))
        let sigma = rgbDistance ? level : level / 3.0.squareRoot()
        var out = [Double](repeating: 0, count: 4 * image.width * image.height)
        for y in 0..<image.height { for x in 0..<image.width {
            let c = image[x, y]
            var sum = [Double](repeating: 0, count: 4), total = [Double](repeating: 0, count: 4)
            for dy in -reach...reach { for dx in -reach...reach {
                let p = image[min(max(x + dx, 0), image.width - 1), min(max(y + dy, 0), image.height - 1)]
                let spatial = exp(-Double(dx * dx + dy * dy) / (2 * radius * radius))
                let rgb = (0..<3).reduce(0.0) { $0 + pow(Double(p[$1] - c[$1]), 2) }
                for k in 0..<4 {
                    let d2 = rgbDistance ? rgb : pow(Double(p[k] - c[k]), 2)
                    let w = spatial * exp(-d2 / (2 * sigma * sigma))
                    sum[k] += w * Double(p[k])
                    total[k] += w
                }
            } }
            for k in 0..<4 { out[4 * (y * image.width + x) + k] = sum[k] / total[k] }
        } }
        return out
    }

    /// The largest and the mean difference between `image` and `reference`, over every channel.
    static func difference(_ image: Image, _ reference: [Double]) -> (worst: Double, mean: Double) {
        var worst = 0.0, total = 0.0
        for (i, p) in image.pixels.enumerated() { for k in 0..<4 {
            let d = abs(Double(p[k]) - reference[4 * i + k])
            worst = max(worst, d)
            total += d
        } }
        return (worst, total / Double(4 * image.pixels.count))
    }

    /// The texture (a gradient in R, an edge in G, strong noise in B) with every third pixel at
    /// partial opacity (premultiplied), so alpha is filtered too.
    static func translucentTexture(width: Int, height: Int) -> Image {
        var image = TestImage.texture(width: width, height: height)
        for y in 0..<height { for x in 0..<width where (x + 2 * y) % 3 == 0 { image[x, y] = image[x, y] * 0.4 } }
        return image
    }

    /// Whether `text` runs on range levels, at full resolution or on the grid (else on the direct sums).
    func usesLevels(_ text: String) throws -> Bool {
        let kernel = try regionFilter(text).plan(for: Size(width: 10, height: 10)).steps[0].kernel
        return kernel is BilateralLevelsKernel || kernel is BilateralGridKernel
    }

    /// Whether `text` runs on the coarse grid.
    func usesGrid(_ text: String) throws -> Bool {
        try regionFilter(text).plan(for: Size(width: 10, height: 10)).steps[0].kernel is BilateralGridKernel
    }

    /// Both methods compute the formula: the direct sums within 1e-4 (the float exponential), the
    /// levels within 1/255 (the cubic interpolation between levels 0.6σ apart: its error falls as
    /// the fourth power of the spacing and grows with σ), with a mean error a quarter of that
    /// (0.19/255 at noise_level 0.5, under 0.1/255 at the slider's 0.3 and below); at small and large
    /// noise levels and radii up to the largest (10), in images wider than either method's column
    /// chunk (128, 512).
    func testNoiseReductionIsTheChannelBilateralFormula() throws {
        let cases: [(level: Double, radius: Double, levels: Bool)] = [
            (0.1, 2, false), (0.03, 1.3, false), (0.02, 4, false),
            (0.5, 3, true), (0.3, 5, true), (0.1, 5, true), (0.05, 5, true), (1, 1.5, true), (0.3, 10, true), (0.05, 10, true),
        ]
        for (level, radius, levels) in cases {
            let text = "noise_reduction noise_level=\(level) radius=\(radius)"
            XCTAssertEqual(try usesLevels(text), levels, text)
            if try usesGrid(text) { continue }  // testTheGridIsTheChannelBilateralFormula
            let image = Self.translucentTexture(width: radius > 3 ? (radius > 5 ? 200 : 300) : 530, height: radius > 3 ? 14 : 9)
            let out = try regionFilter(text).apply(to: image, executor: smallTiles)
            let (worst, mean) = Self.difference(out, Self.reference(image, level: level, radius: radius))
            XCTAssertLessThan(worst, levels ? 1 / 255 : 1e-4, text)
            XCTAssertLessThan(mean, levels ? 0.25 / 255 : 1e-5, text)
        }
    }

    /// From radius 4 the levels run on the coarse grid (cells of radius/2, at least 2), whose
    /// cells sample the spatial Gaussian and whose window is not cut exactly at 2·radius: within
    /// 2/255 of the formula on this texture (1.91/255 at noise_level 0.5 radius 4, 1.89/255 at 1
    /// radius 10, 1.75/255 at the slider's maximum 0.3 radius 5, 1.35/255 at 0.3 radius 10), mean
    /// under 0.25/255 (0.24/255 at 0.5 radius 4, 0.12/255 or less at 0.3 and below), where the
    /// full-resolution levels hold 1/255 (at radius 3 still on them); at small and large noise
    /// levels, at radii 4 to 10, fractional too.
    func testTheGridIsTheChannelBilateralFormula() throws {
        XCTAssertFalse(try usesGrid("noise_reduction noise_level=0.3 radius=3"))
        for (level, radius) in [(0.3, 5.0), (0.1, 5.0), (0.5, 4.0), (0.3, 10.0), (0.05, 10.0), (0.3, 7.0), (0.1, 4.0), (1, 10.0), (0.3, 8.5)] {
            let text = "noise_reduction noise_level=\(level) radius=\(radius)"
            XCTAssertTrue(try usesGrid(text), text)
            // At radius 4, wider than the grid's column chunk (512).
            let image = Self.translucentTexture(width: radius == 4 ? 530 : 200, height: radius == 4 ? 12 : 20)
            let out = try regionFilter(text).apply(to: image, executor: smallTiles)
            let (worst, mean) = Self.difference(out, Self.reference(image, level: level, radius: radius))
            XCTAssertLessThan(worst, 2 / 255, text)
            XCTAssertLessThan(mean, 0.25 / 255, text)
        }
    }

    /// On a grey image (R = G = B) the filter is the bilateral filter on the RGB distance with
    /// sigma noise_level, as it was before it went channel by channel: within 1/255 by levels.
    func testOnGreyItIsTheRGBDistanceFormula() throws {
        let texture = TestImage.texture(width: 300, height: 14)
        let grey = Image(width: 300, height: 14) { x, y in
            let v = 0.5 * texture[x, y][1] + 0.5 * texture[x, y][2]
            return Pixel(v, v, v, 1)
        }
        for (level, radius) in [(0.3, 5.0), (0.1, 2.0), (0.15, 3.0)] {
            let text = "noise_reduction noise_level=\(level) radius=\(radius)"
            let out = try regionFilter(text).apply(to: grey, executor: smallTiles)
            let (worst, _) = Self.difference(out, Self.reference(grey, level: level, radius: radius, rgbDistance: true))
            XCTAssertLessThan(worst, try usesGrid(text) ? 2 / 255 : try usesLevels(text) ? 1 / 255 : 1e-4, text)
        }
    }

    /// Values past the levels' −0.5…1.5 (after an exposure step, say) are summed directly, and
    /// their neighbours inside still interpolate correctly.
    func testValuesOutsideTheLevelsAreSummedDirectly() throws {
        let texture = TestImage.texture(width: 200, height: 12)
        let wide = Image(width: 200, height: 12) { x, y in
            let p = texture[x, y]
            return Pixel(3 * p[0] - 1, 2.5 * p[2] - 0.4, p[1], 1)
        }
        let text = "noise_reduction noise_level=0.3 radius=3"
        XCTAssertTrue(try usesLevels(text))
        let out = try regionFilter(text).apply(to: wide, executor: smallTiles)
        let (worst, _) = Self.difference(out, Self.reference(wide, level: 0.3, radius: 3))
        XCTAssertLessThan(worst, 1 / 255)
    }

    /// Bands of any height and any number of threads give the same pixels (the levels a band
    /// does not need add nothing to its pixels' sums; the grid's cells lie on the image's origin
    /// and are summed in one order): every method, in an image wider than a column chunk.
    func testBandsAndThreadsDoNotChangeAPixel() throws {
        let image = Self.translucentTexture(width: 530, height: 40)
        for text in ["noise_reduction noise_level=0.3 radius=5", "noise_reduction noise_level=0.1 radius=2",
                     "noise_reduction noise_level=0.2 radius=10", "noise_reduction noise_level=0.3 radius=3"] {
            let filter = try regionFilter(text)
            let whole = try filter.apply(to: image, executor: StripExecutor(bandHeight: 64, concurrency: 1))
            XCTAssertEqual(try filter.apply(to: image, executor: smallTiles), whole, text)
            XCTAssertEqual(try filter.apply(to: image, executor: StripExecutor(bandHeight: 3, concurrency: 2)), whole, text)
        }
    }
}
