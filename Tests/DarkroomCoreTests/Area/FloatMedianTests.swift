@testable import DarkroomCore
import DarkroomTestSupport
import XCTest

/// The float median (after a colour step, a resize, a 16-bit source: `dr_median_float`) is exact:
/// the value a sort of the window puts in the middle, however closely values crowd a bin of its
/// histogram and however wide the range they span.
final class FloatMedianTests: XCTestCase {
    /// Sepia on 8-bit colours, as `sepia | median` sees it: values of many distinct floats a hair
    /// apart, many of them equal, some above 1. Against `vips rank` at small and large radii.
    func testMedianAfterSepiaIsVipsRank() throws {
        let texture = TestImage.texture(width: 67, height: 45)
        let m: [Float] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
        let sepia = Image(width: texture.width, height: texture.height) { x, y in
            // Coarse 8-bit steps (a smooth photo), so windows hold runs of equal colours.
            let p = texture[x, y], q = Pixel(((p[0] * 32).rounded() * 8 + Float(x % 3)) / 255,
                                             ((p[1] * 255 + p[2] * 20).rounded()) / 255, (p[2] * 255).rounded() / 255, 1)
            return Pixel(m[0] * q[0] + m[1] * q[1] + m[2] * q[2], m[3] * q[0] + m[4] * q[1] + m[5] * q[2],
                         m[6] * q[0] + m[7] * q[1] + m[8] * q[2], 1)
        }
        XCTAssertGreaterThan(sepia.pixels.map { $0[0] }.max()!, 1, "some values lie past 1")
        for r in [2, 5, 10] {
            XCTAssertEqual(try medianMismatchesAgainstVipsRank(sepia, radius: r), 0, "radius \(r)")
        }
    }

    /// A colour photograph's kind of content (8-bit samples: smooth shading, grain, hard edges)
    /// through the real `sepia`, then the median at 3×3 (the sorting network) and 11×11 (the
    /// float sliding window): every channel of every pixel is vips rank's value inside the border
    /// and a sort of the window's values everywhere, with bands short and tall (blocks cut
    /// across and down within one band) and on two threads.
    func testSepiaThenMedianOfAColourPhotoIsTheWindowsMiddle() throws {
        let photo = Image(width: 157, height: 101) { x, y in
            var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            hash = (hash ^ (hash >> 13)) &* 0x5BD1_E995
            let grain = Float(Int(hash & 15) - 8) / 255, u = Float(x) / 157, v = Float(y) / 101
            let sky: Float = (x - 70) * (x - 70) + (y - 40) * (y - 40) < 900 ? 0.35 : 0
            let channels = [0.2 + 0.5 * u + sky, 0.3 + 0.3 * sin(7 * u + 4 * v), 0.8 - 0.6 * v + sky * 0.5]
            let q = channels.map { (min(max($0 + grain, 0), 1) * 255).rounded() / 255 }
            return Pixel(q[0], q[1], q[2], 1)
        }
        let sepia = try ChainCompiler.compile(try ChainSyntax.parse("sepia").resolve(seed: 1)).run(photo, executor: smallTiles).image
        XCTAssertGreaterThan(Set(sepia.pixels.map { $0[0] }).count, 1000, "sepia leaves many distinct floats")
        let tall = StripExecutor(bandHeight: 80, concurrency: 2)
        for r in [1, 5] {
            for executor in [smallTiles, tall] {
                XCTAssertEqual(try medianMismatchesAgainstVipsRank(sepia, radius: r, executor: executor), 0,
                               "radius \(r), band height \(executor.bandHeight)")
            }
            let ours = try regionFilter("median radius=\(r)").apply(to: sepia, executor: tall)
            var mismatches = 0
            for y in 0..<sepia.height { for x in 0..<sepia.width { for c in 0..<3 {
                var window = [Float]()
                for dy in -r...r { for dx in -r...r {
                    window.append(sepia[min(max(x + dx, 0), sepia.width - 1), min(max(y + dy, 0), sepia.height - 1)][c])
                } }
                window.sort()
                if ours[x, y][c] != window[window.count / 2] { mismatches += 1 }
            } } }
            XCTAssertEqual(mismatches, 0, "radius \(r): values other than the sorted window's middle")
        }
    }

    /// Infinities, values near the float's limits and tiny ones in one channel (a range too wide
    /// for a float), infinities beside values in 0…1 in another: every output is the window's
    /// middle value (a sort here, edges extended as the filter extends them).
    func testMedianOfExtremeValuesIsTheSortedMiddle() throws {
        let extremes: [Float] = [.infinity, -.infinity, 3e38, -3e38, 1e-30, -1e-30, 0.5, 2, -7, 1e6]
        let image = Image(width: 23, height: 19) { x, y in
            let i = (x * 7 + y * 13 + x * y) % 29
            let v: Float = i < extremes.count ? extremes[i] : Float(i) / 29
            return Pixel(v, Float((x * 5 + y * 3) % 17) / 16 + (i == 3 ? 1e-7 : 0), i < 2 ? -v : Float(i % 11) / 10, 1)
        }
        for r in [2, 3, 6] {
            let ours = try regionFilter("median radius=\(r)").apply(to: image, executor: smallTiles)
            for y in 0..<image.height { for x in 0..<image.width { for c in 0..<3 {
                var window = [Float]()
                for dy in -r...r { for dx in -r...r {
                    window.append(image[min(max(x + dx, 0), image.width - 1), min(max(y + dy, 0), image.height - 1)][c])
                } }
                window.sort()
                XCTAssertEqual(ours[x, y][c], window[window.count / 2], "(\(x), \(y)) channel \(c), radius \(r)")
            } } }
        }
    }
}
