@testable import DarkroomCore
import Foundation

/// Opaque images the tests generate, each made to expose a particular kind of mistake.
enum TestImage {
    /// Smooth gradients and low-frequency waves, free of hard edges so that resamplers agree away
    /// from the border.
    static func smooth(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { x, y in
            let u = Float(x) / Float(width), v = Float(y) / Float(height)
            return Pixel(u, 0.5 + 0.4 * sin(6 * u + 3 * v), v * v, 1)
        }
    }

    /// Smooth gradients, sharp edges and hashed noise: asymmetric in both directions, so a flipped
    /// kernel or a transposed pass would show.
    static func texture(width: Int, height: Int) -> Image {
        Image(width: width, height: height) { x, y in
            var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            hash = (hash ^ (hash >> 13)) &* 0x5BD1_E995
            let noise = Float(hash & 0xFFFF) / 65535
            let edge: Float = x * 3 + y > width ? 0.8 : 0.1
            return Pixel(Float(x) / Float(width), edge, 0.3 + 0.5 * noise, 1)
        }
    }
}
