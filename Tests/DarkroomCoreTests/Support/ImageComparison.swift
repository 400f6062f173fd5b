import Foundation
import DarkroomCore

/// Ways tests compare images.
enum ImageComparison {
    /// Mean absolute difference of the RGB channels (premultiplied) over `region`, in 0…1 units.
    static func meanAbsoluteError(_ a: Image, _ b: Image, in region: Rect) -> Double {
        var total = 0.0
        for y in region.y..<region.maxY {
            for x in region.x..<region.maxX {
                let d = a[x, y] - b[x, y]
                total += Double(abs(d[0]) + abs(d[1]) + abs(d[2]))
            }
        }
        return total / Double(max(region.width * region.height * 3, 1))
    }

    /// The largest channel difference over the whole image; the sizes must match.
    static func maxDifference(_ a: Image, _ b: Image) -> Float {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        return zip(a.pixels, b.pixels).map { distance($0, $1) }.max() ?? 0
    }

    /// The largest channel difference between two pixels.
    static func distance(_ a: Pixel, _ b: Pixel) -> Float {
        let d = a - b
        return max(max(abs(d[0]), abs(d[1])), max(abs(d[2]), abs(d[3])))
    }

    /// A smooth, non-trivial opaque test image (gradients and low-frequency waves), free of hard
    /// edges so that resamplers agree away from the border.
    static func smooth(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { x, y in
            let u = Float(x) / Float(width), v = Float(y) / Float(height)
            return Pixel(u, 0.5 + 0.4 * sin(6 * u + 3 * v), v * v, 1)
        }
    }
}
