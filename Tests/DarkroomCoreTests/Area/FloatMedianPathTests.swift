import CDarkroomKernels
import XCTest

/// `dr_median_float` picks its instruction set at run time (portable; AVX2 with popcnt; with
/// BMI2's pdep where it is fast): every path this processor runs gives each window's middle
/// value, found here by sorting the window, on values that crowd together, tie, span the float's
/// range or sit a unit in the last place apart (the sort's insertion pass and its fallback).
final class FloatMedianPathTests: XCTestCase {
    /// Deterministic pseudo-random numbers (xorshift), so a failure can be replayed.
    private struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
    }

    /// Image kinds: each a value for channel c of pixel (x, y).
    private static func sample(_ kind: Int, _ x: Int, _ y: Int, _ c: Int, _ random: inout Random) -> Float {
        switch kind {
        case 0:  // sepia'd 8-bit photo: smooth, grain, many ties, some values past 1
            let q = (Float(x * 3 + y * 2 + c * 40) + Float(random.next() % 9)).truncatingRemainder(dividingBy: 256) / 255
            return [0.393, 0.349, 0.272, 1][c] * q * 1.7 + [0.769, 0.686, 0.534, 0][c] * (1 - q) * 0.4
        case 1:  // 16-bit steps: neighbours a few units in the last place apart, over a wide range
            return c == 3 ? 1 : Float(random.next() % 65_536) / 65_535 * (c == 0 ? 1 : 1e-3)
        case 2:  // neighbouring floats (keys differing only in their lowest bits) and a far outlier
            return (x * 7 + y) % 50 == 0 ? 1e6 : Float(bitPattern: Float(0.5).bitPattern &+ UInt32(random.next() % 4096))
        default:  // extremes: infinities, ±3e38, tiny values, NaN (counts as 0), ±0
            let extremes: [Float] = [.infinity, -.infinity, 3e38, -3e38, 1e-30, -1e-30, 0.5, -0.0, 0, .nan, 7, -2]
            return random.next() % 3 == 0 ? extremes[Int(random.next() % UInt64(extremes.count))] : random.unit()
        }
    }

    func testEveryPathGivesEachWindowsMiddle() {
        let paths = dr_median_float_paths()
        XCTAssertGreaterThanOrEqual(paths, 1)
        #if arch(x86_64)
        // This suite runs on x86-64 machines with AVX2 (the project's CI and bench machines).
        XCTAssertGreaterThanOrEqual(paths, 2, "the AVX2 path is not taken on an AVX2 machine")
        #endif
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        for (kind, width, height, radius) in [(0, 67, 45, 5), (0, 100, 33, 2), (1, 41, 40, 10), (2, 35, 17, 3),
                                              (3, 23, 19, 6), (1, 1, 7, 2), (3, 70, 9, 1)] {
            let iw = width + 2 * radius, ih = height + 2 * radius
            var input = [Float](repeating: 0, count: iw * ih * 4)
            for y in 0..<ih { for x in 0..<iw { for c in 0..<4 {
                input[(y * iw + x) * 4 + c] = Self.sample(kind, x, y, c, &random)
            } } }
            var expected = [Float](repeating: 0, count: width * height * 4)
            for y in 0..<height { for x in 0..<width { for c in 0..<4 {
                var window = [Float]()
                for dy in 0...(2 * radius) { for dx in 0...(2 * radius) {
                    let v = input[((y + dy) * iw + x + dx) * 4 + c]
                    window.append(v.isNaN ? 0 : v)
                } }
                window.sort()
                expected[(y * width + x) * 4 + c] = window[window.count / 2]
            } } }
            for path in 1...paths {
                let output = Self.median(input, iw: iw, radius: radius, width: width, height: height, path: path)
                var mismatches = 0
                for i in expected.indices where output[i] != expected[i] { mismatches += 1 }  // −0 == 0, as a sort has them
                XCTAssertEqual(mismatches, 0, "path \(path), kind \(kind), \(width)×\(height), radius \(radius)")
            }
        }
    }

    private static func median(_ input: [Float], iw: Int, radius: Int, width: Int, height: Int, path: Int32) -> [Float] {
        var output = [Float](repeating: .nan, count: width * height * 4)
        input.withUnsafeBufferPointer { pixels in
            let rows: [UnsafePointer<Float>?] = (0..<(height + 2 * radius)).map { pixels.baseAddress! + $0 * iw * 4 }
            let bytes = dr_median_float_scratch(Int32(radius), Int32(width), Int32(height))
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
            defer { scratch.deallocate() }
            output.withUnsafeMutableBufferPointer { out in
                dr_median_float_path(rows, Int32(radius), Int32(width), Int32(height), out.baseAddress!, 4 * width, scratch, path)
            }
        }
        return output
    }
}
