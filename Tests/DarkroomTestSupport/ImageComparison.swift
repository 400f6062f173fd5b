import DarkroomCore
import Foundation

/// Peak signal-to-noise ratio of the colour channels over `region` (the whole image when nil),
/// in dB (0…1 full scale); infinite when equal. What the tests compare with references by: a
/// stated PSNR, never a hand-picked mean.
public func psnr(_ a: Image, _ b: Image, in region: Rect? = nil) -> Double {
    precondition(a.size == b.size, "\(a.size) vs \(b.size)")
    let r = region ?? Rect(x: 0, y: 0, width: a.width, height: a.height)
    var sum = 0.0
    for y in r.y..<r.maxY {
        for x in r.x..<r.maxX {
            let p = a[x, y], q = b[x, y]
            for c in 0..<3 { let d = Double(p[c] - q[c]); sum += d * d }
        }
    }
    let mse = sum / Double(3 * max(r.width * r.height, 1))
    return mse == 0 ? .infinity : 10 * log10(1 / mse)
}
