import DarkroomCore
import Foundation

/// Peak signal-to-noise ratio of the colour channels, in dB (0…1 full scale); infinite when equal.
/// What the tests compare with references by: a stated PSNR, never a hand-picked mean.
public func psnr(_ a: Image, _ b: Image) -> Double {
    precondition(a.size == b.size, "\(a.size) vs \(b.size)")
    var sum = 0.0
    for (p, q) in zip(a.pixels, b.pixels) {
        for c in 0..<3 { let d = Double(p[c] - q[c]); sum += d * d }
    }
    let mse = sum / Double(3 * a.pixels.count)
    return mse == 0 ? .infinity : 10 * log10(1 / mse)
}
