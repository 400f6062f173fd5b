import DarkroomCore
import XCTest

/// Shared helpers for the area filter tests.
enum AreaTest {
    /// A serial executor with small tiles, so tile seams fall inside the test images.
    static let smallTiles = TileExecutor(tileSize: 7, concurrency: 2)

    /// An opaque test image with smooth gradients, sharp edges and hashed noise: asymmetric in
    /// both directions, so a flipped kernel or a transposed pass would show.
    static func texture(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { x, y in
            var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            hash = (hash ^ (hash >> 13)) &* 0x5BD1_E995
            let noise = Float(hash & 0xFFFF) / 65535
            let edge: Float = x * 3 + y > width ? 0.8 : 0.1
            return Pixel(Float(x) / Float(width), edge, 0.3 + 0.5 * noise, 1)
        }
    }

    /// Largest absolute difference over all four channels of two pixels.
    static func difference(_ p: Pixel, _ q: Pixel) -> Float {
        (0..<4).map { abs(p[$0] - q[$0]) }.max() ?? 0
    }

    /// Mean absolute difference of RGB over all pixels.
    static func meanAbsoluteError(_ a: Image, _ b: Image) -> Float {
        precondition(a.size == b.size)
        var total: Float = 0
        for (p, q) in zip(a.pixels, b.pixels) {
            total += abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2])
        }
        return total / Float(3 * a.pixels.count)
    }

    /// Largest absolute difference of RGB.
    static func maxAbsoluteError(_ a: Image, _ b: Image) -> Float {
        zip(a.pixels, b.pixels).map { p, q in max(abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2])) }.max() ?? 0
    }

    /// Builds a filter the way a config does, from `--chain` text.
    static func filter(_ chain: String) throws -> any RegionFilter {
        let resolved = try ChainSyntax.parse(chain).resolve(seed: 1)
        guard let f = resolved.first?.filter as? any RegionFilter else {
            throw PFM.Failure("\(chain) is not a region filter")
        }
        return f
    }
}
