@testable import DarkroomCore
import XCTest
@testable import DarkroomCodecs

/// The last step of every 8-bit RGB output (dr_quantise_rgb, eight pixels a step with AVX2 and
/// the rest one by one): each sample clamped to 0…1 (NaN to 0), flattened over white for JPEG
/// (premultiplied colour plus 1 − alpha), times 255 and rounded to nearest, the same bytes for
/// every row length and every position in the row.
final class QuantiseTests: XCTestCase {
    private func unit(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }

    /// The formula, one sample at a time.
    private func expected(_ pixels: [Pixel], overWhite: Bool) -> [UInt8] {
        pixels.flatMap { p in
            let white: Float = overWhite ? 1 - unit(p[3]) : 0
            return (0..<3).map { UInt8(unit(p[$0] + white) * 255 + 0.5) }
        }
    }

    func testEveryRowLengthGivesTheFormulasBytes() {
        var rng = SeededGenerator(seed: 3)
        let specials: [Float] = [.nan, -0.25, 0, 0.5 / 255, 0.5, 127.5 / 255, 1, 1.75, .infinity, -.infinity]
        for count in 0...41 {
            let pixels = (0..<count).map { _ in
                Pixel((0..<4).map { _ in Bool.random(using: &rng) ? specials.randomElement(using: &rng)! : Float.random(in: 0...1, using: &rng) })
            }
            for layout in [PixelConversion.Layout.rgb, .rgbOverWhite] {
                // Two bytes of slack past the row, which must stay as they were.
                var out = [UInt8](repeating: 0xA5, count: 3 * count + 2)
                pixels.withUnsafeBufferPointer { p in
                    out.withUnsafeMutableBytes { o in
                        if let base = p.baseAddress { PixelConversion.bytes(from: base, count: count, layout: layout, into: o.baseAddress!) }
                    }
                }
                XCTAssertEqual(Array(out.prefix(3 * count)), expected(pixels, overWhite: layout.overWhite), "\(count) pixels, \(layout)")
                XCTAssertEqual(Array(out.suffix(2)), [0xA5, 0xA5], "nothing written past the row (\(count) pixels)")
            }
        }
    }
}
