import Foundation
@testable import DarkroomCore

/// Ways tests compare images.
enum ImageComparison {
    /// Mean absolute difference of the RGB channels (premultiplied) over `region` (the whole image
    /// when nil, and then the sizes must match), in 0…1 units.
    static func meanAbsoluteError(_ a: Image, _ b: Image, in region: Rect? = nil) -> Double {
        if region == nil { precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)") }
        let region = region ?? Rect(x: 0, y: 0, width: a.width, height: a.height)
        var total = 0.0
        for y in region.y..<region.maxY {
            for x in region.x..<region.maxX {
                let d = a[x, y] - b[x, y]
                total += Double(abs(d[0]) + abs(d[1]) + abs(d[2]))
            }
        }
        return total / Double(max(region.width * region.height * 3, 1))
    }

    /// The largest difference in `channels` (all four by default) over the whole image; the sizes
    /// must match.
    static func maxDifference(_ a: Image, _ b: Image, channels: Range<Int> = 0..<4) -> Float {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        return zip(a.pixels, b.pixels).map { distance($0, $1, channels: channels) }.max() ?? 0
    }

    /// The largest difference in `channels` (all four by default) between two pixels.
    static func distance(_ a: Pixel, _ b: Pixel, channels: Range<Int> = 0..<4) -> Float {
        let d = a - b
        return channels.map { abs(d[$0]) }.max() ?? 0
    }
}
