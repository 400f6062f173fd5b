@testable import DarkroomCore
import Foundation
import XCTest

/// Loads the committed fixtures (see Fixtures/README.md) by a path relative to this file.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

/// The formulas make_fixtures.py used, restated so the tests know what each pixel must be.
enum FixturePattern {
    static let width = 8, height = 6

    static func rgba8(_ x: Int, _ y: Int) -> [Int] { [30 * x + 5, 40 * y + 10, 255 - 20 * x - 10 * y, 255 - 40 * y - 5 * x] }
    static func rgba16(_ x: Int, _ y: Int) -> [Int] {
        [8000 * x + 17, 10000 * y + 3, 65535 - 4000 * x - 1000 * y, 65535 - 9000 * y - 500 * x]
    }
    static func gray8(_ x: Int, _ y: Int) -> Int { 30 * x + 5 * y }

    /// The premultiplied float pixel for straight integer samples at `maxValue` full scale.
    static func premultiplied(_ samples: [Int], maxValue: Float = 255) -> Pixel {
        (Pixel(Float(samples[0]), Float(samples[1]), Float(samples[2]), Float(samples[3])) / maxValue).premultiplied
    }
}

/// Asserts that two pixels agree channel by channel within `tolerance`.
func assertPixel(
    _ actual: Pixel, _ expected: Pixel, tolerance: Float = 1e-5, _ what: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let diff = absoluteDifference(actual, expected).max()
    XCTAssertLessThanOrEqual(diff, tolerance, "\(what): got \(actual), expected \(expected)", file: file, line: line)
}

/// A pixel from straight colour components given in 0…255.
func straight8(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> Pixel {
    Pixel(Float(r), Float(g), Float(b), Float(a)) / 255
}

/// Channel-wise |a − b| (the standard library has no SIMD abs).
func absoluteDifference(_ a: Pixel, _ b: Pixel) -> Pixel {
    let d = a - b
    return d.replacing(with: -d, where: d .< 0)
}
