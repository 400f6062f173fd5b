import CCairo
import CDarkroomDraw
@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// ``BlendMode`` against the W3C Compositing and Blending Level 1 formulas worked by hand on
/// known pixels, and against cairo's (pixman's) own operators on a grid of 8-bit pixels.
final class BlendModeTests: XCTestCase {
    /// Opaque backdrop Cb = (0.2, 0.5, 0.8) and source Cs = (0.6, 0.3, 0.9): B(Cb, Cs) per the
    /// spec's definitions, computed by hand.
    func testSeparableModesOnKnownOpaquePixels() {
        let b = Pixel(0.2, 0.5, 0.8, 1), s = Pixel(0.6, 0.3, 0.9, 1)
        let expected: [BlendMode: SIMD3<Float>] = [
            .normal: [0.6, 0.3, 0.9],
            .multiply: [0.12, 0.15, 0.72],
            .screen: [0.68, 0.65, 0.98],
            .overlay: [0.24, 0.3, 0.96],
            .darken: [0.2, 0.3, 0.8],
            .lighten: [0.6, 0.5, 0.9],
            .colorDodge: [0.5, 0.7142857, 1],
            .colorBurn: [0, 0, 0.7777778],
            .hardLight: [0.36, 0.3, 0.96],
            .softLight: [0.2496, 0.4, 0.8755418],
            .difference: [0.4, 0.2, 0.1],
            .exclusion: [0.56, 0.5, 0.26],
        ]
        for (mode, rgb) in expected { assertPixel(mode.composite(s, onto: b), Pixel(rgb[0], rgb[1], rgb[2], 1), "\(mode)") }
    }

    /// Cb = (0.2, 0.5, 0.8) (Lum 0.443, Sat 0.6), Cs = (0.9, 0.6, 0.7) (Lum 0.701, Sat 0.3);
    /// luminosity needs ClipColor (a channel reaches 1.058).
    func testNonSeparableModesOnKnownOpaquePixels() {
        let b = Pixel(0.2, 0.5, 0.8, 1), s = Pixel(0.9, 0.6, 0.7, 1)
        let expected: [BlendMode: SIMD3<Float>] = [
            .hue: [0.841, 0.241, 0.441],
            .saturation: [0.3215, 0.4715, 0.6215],
            .color: [0.642, 0.342, 0.442],
            .luminosity: [0.497479, 0.74874, 1],
        ]
        for (mode, rgb) in expected { assertPixel(mode.composite(s, onto: b), Pixel(rgb[0], rgb[1], rgb[2], 1), "\(mode)") }
    }

    /// Premultiplied source (0.15, 0.075, 0.225, 0.25) onto backdrop (0.16, 0.4, 0.64, 0.8).
    func testPorterDuffOperatorsAndBlendingWithTransparency() {
        let s = Pixel(0.15, 0.075, 0.225, 0.25), b = Pixel(0.16, 0.4, 0.64, 0.8)
        let expected: [BlendMode: Pixel] = [
            .clear: [0, 0, 0, 0],
            .source: s,
            .sourceOver: [0.27, 0.375, 0.705, 0.85],
            .normal: [0.27, 0.375, 0.705, 0.85],
            .sourceIn: [0.12, 0.06, 0.18, 0.2],
            .sourceOut: [0.03, 0.015, 0.045, 0.05],
            .sourceAtop: [0.24, 0.36, 0.66, 0.8],
            .destinationOver: [0.19, 0.415, 0.685, 0.85],
            .destinationIn: [0.04, 0.1, 0.16, 0.2],
            .destinationOut: [0.12, 0.3, 0.48, 0.6],
            .destinationAtop: [0.07, 0.115, 0.205, 0.25],
            .xor: [0.15, 0.315, 0.525, 0.65],
            .plus: [0.31, 0.475, 0.865, 1],
            // cs·(1 − αb) + cb·(1 − αs) + αs·αb·B, B = (0.12, 0.15, 0.72).
            .multiply: [0.174, 0.345, 0.669, 0.85],
        ]
        for (mode, pixel) in expected { assertPixel(mode.composite(s, onto: b), pixel, "\(mode)") }
    }

    /// The row form gives what the pixel form gives (it has a fast path for source-over).
    func testTheRowFormMatchesThePixelForm() {
        let sources: [Pixel] = grid().map(\.0), backdrops: [Pixel] = grid().map(\.1)
        for mode in BlendMode.allCases {
            var row = backdrops
            sources.withUnsafeBufferPointer { s in
                row.withUnsafeMutableBufferPointer { mode.composite(s.baseAddress!, onto: $0.baseAddress!, count: s.count) }
            }
            for i in row.indices { assertPixel(row[i], mode.composite(sources[i], onto: backdrops[i]), "\(mode) #\(i)", accuracy: 1e-6) }
        }
    }

    /// Every mode against cairo's operator on the same 8-bit premultiplied pixels. pixman
    /// computes in 8 bits with rounding at each step; the tolerance is 3/255.
    func testEveryModeMatchesCairosOperator() {
        let pairs = grid()
        for mode in BlendMode.allCases {
            let cairo = cairoComposite(pairs, mode.cairoOperator)
            var worst: Float = 0, at = 0
            for (i, (s, b)) in pairs.enumerated() {
                let ours = mode.composite(s, onto: b)
                let d = (0..<4).map { abs(ours[$0] - cairo[i][$0]) }.max()!
                if d > worst { (worst, at) = (d, i) }
            }
            XCTAssertLessThanOrEqual(worst * 255, 3, "\(mode): source \(pairs[at].0) onto \(pairs[at].1): ours "
                + "\(mode.composite(pairs[at].0, onto: pairs[at].1)), cairo \(cairo[at])")
        }
    }

    func testBoundedModesLeaveTheBackdropUnderATransparentSource() {
        let b = Pixel(0.16, 0.4, 0.64, 0.8)
        for mode in BlendMode.allCases {
            let unchanged = mode.composite(.zero, onto: b) == b
            XCTAssertEqual(unchanged, mode.isBounded, "\(mode)")
        }
    }

    func testOpaqueBackdropsStayOpaqueWhereDeclared() {
        for mode in BlendMode.allCases where mode.keepsOpaqueBackdropOpaque {
            for (s, _) in grid() { XCTAssertEqual(mode.composite(s, onto: Pixel(0.3, 0.6, 0.9, 1))[3], 1, accuracy: 1e-6, "\(mode)") }
        }
    }

    // MARK: Helpers

    /// Source and backdrop pairs on 8-bit premultiplied values: straight colours from a few
    /// levels (0, ¼, ½, ¾, 1 and off-grid ones) at alphas 0, 0.4, 1.
    private func grid() -> [(Pixel, Pixel)] {
        let levels: [Float] = [0, 0.25, 0.5, 0.75, 1, 0.1, 0.9]
        let alphas: [Float] = [1, 0.4, 0]
        var colours = [Pixel]()
        for (i, r) in levels.enumerated() {
            for a in alphas {
                let g = levels[(i + 2) % levels.count], b = levels[(i + 5) % levels.count]
                colours.append(quantised(Pixel(r, g, b, a).premultiplied))
            }
        }
        var pairs = [(Pixel, Pixel)]()
        for s in colours { for b in colours { pairs.append((s, b)) } }
        return pairs
    }

    private func quantised(_ p: Pixel) -> Pixel { (p * 255).rounded(.toNearestOrEven) / 255 }

    /// One row of ARGB32 pixels: the backdrop, with the source painted over it with `op` by cairo.
    private func cairoComposite(_ pairs: [(Pixel, Pixel)], _ op: cairo_operator_t) -> [Pixel] {
        func argb(_ p: Pixel) -> UInt32 {
            let c = (p * 255).rounded(.toNearestOrEven)
            return UInt32(c[3]) << 24 | UInt32(c[0]) << 16 | UInt32(c[1]) << 8 | UInt32(c[2])
        }
        let source = pairs.map { argb($0.0) }
        var backdrop = pairs.map { argb($0.1) }
        XCTAssertEqual(dr_cairo_composite(Int32(op.rawValue), source, &backdrop, Int32(pairs.count)), 0)
        return backdrop.map { v in Pixel(Float(v >> 16 & 255), Float(v >> 8 & 255), Float(v & 255), Float(v >> 24)) / 255 }
    }

    private func assertPixel(_ got: Pixel, _ want: Pixel, _ message: String, accuracy: Float = 1e-5,
                             file: StaticString = #filePath, line: UInt = #line) {
        for c in 0..<4 {
            XCTAssertEqual(got[c], want[c], accuracy: accuracy, "\(message) channel \(c): got \(got), want \(want)", file: file, line: line)
        }
    }
}
