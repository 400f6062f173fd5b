@testable import DarkroomCore
import XCTest

/// The cookbook's cap insets: corners pixel-exact, edges stretched one way, centre both.
final class NineSliceTests: XCTestCase {
    /// A 20×16 "button": every pixel distinct, so a corner pixel taken from the wrong place shows.
    let button = Image(width: 20, height: 16) { x, y in
        Pixel(Float(x) / 19, Float(y) / 15, Float((x * 5 + y * 3) % 17) / 16, 0.5 + 0.5 * Float((x + y) % 3) / 2).premultiplied
    }
    /// insets: top 4, left 5, bottom 3, right 6.
    let insets = (top: 4, left: 5, bottom: 3, right: 6)

    private func slice(_ args: String) throws -> Image {
        try regionFilter("nine_slice insets=[4,5,3,6] \(args)").apply(to: button, executor: smallTiles)
    }

    func testCornersArePixelExactAtAnySize() throws {
        for (w, h) in [(60, 40), (23, 17), (200, 9), (12, 100)] {
            let out = try slice("width=\(w) height=\(h)")
            XCTAssertEqual(out.size, Size(width: w, height: h))
            let i = insets
            for y in 0..<i.top { for x in 0..<i.left { XCTAssertEqual(out[x, y], button[x, y], "top-left (\(x), \(y)) at \(w)×\(h)") } }
            for y in 0..<i.top { for x in 0..<i.right {
                XCTAssertEqual(out[w - i.right + x, y], button[20 - i.right + x, y], "top-right at \(w)×\(h)")
            } }
            for y in 0..<i.bottom { for x in 0..<i.left {
                XCTAssertEqual(out[x, h - i.bottom + y], button[x, 16 - i.bottom + y], "bottom-left at \(w)×\(h)")
            } }
            for y in 0..<i.bottom { for x in 0..<i.right {
                XCTAssertEqual(out[w - i.right + x, h - i.bottom + y], button[20 - i.right + x, 16 - i.bottom + y], "bottom-right")
            } }
        }
    }

    /// The top edge stretches across only: each of its rows holds only colours from the same
    /// source row's middle, and the left edge keeps its columns exactly, stretched down only.
    func testEdgesStretchOneWayOnly() throws {
        let out = try slice("width=61 height=41")
        for y in 0..<insets.top {
            // Across, the first and last middle pixels of the row are the source's (centres clamp).
            XCTAssertEqual(out[insets.left, y][1], button[insets.left, y][1], accuracy: 1e-6)
            for x in insets.left..<(61 - insets.right) {
                XCTAssertEqual(out[x, y][1] / max(out[x, y][3], 1e-6), Float(y) / 15, accuracy: 1e-5, "top edge keeps its row")
            }
        }
        for y in insets.top..<(41 - insets.bottom) {
            for x in 0..<insets.left {
                let straight = out[x, y].unpremultiplied
                XCTAssertEqual(straight[0], Float(x) / 19, accuracy: 1e-5, "left edge keeps its column")
            }
        }
    }

    /// On a linear ramp bilinear stretching is exact, so the centre is the ramp stretched.
    func testCentreStretchesBothWays() throws {
        let ramp = Image(width: 10, height: 10) { x, y in Pixel(Float(x) / 9, Float(y) / 9, 0, 1) }
        let out = try regionFilter("nine_slice insets=2 width=26 height=18").apply(to: ramp, executor: smallTiles)
        // Middle: source 2..<8 (6 px) onto output 2..<24 (22 px); pixel centres map linearly.
        for x in 2..<24 {
            let pos = min(max((Double(x - 2) + 0.5) * 6 / 22 - 0.5, 0), 5) + 2
            XCTAssertEqual(Double(out[x, 9][0]), pos / 9, accuracy: 1e-5, "column \(x)")
        }
    }

    func testTiledCentreRepeatsTheSource() throws {
        let out = try slice("width=40 height=30 center=tile")
        let middleW = 20 - insets.left - insets.right
        for y in [insets.top, 12, 30 - insets.bottom - 1] { for x in insets.left..<(40 - insets.right) {
            let sy = y < 30 - insets.bottom ? insets.top + (y - insets.top) % (16 - insets.top - insets.bottom) : y
            XCTAssertEqual(out[x, y], button[insets.left + (x - insets.left) % middleW, sy], "(\(x), \(y))")
        } }
    }

    func testBadInsetsAreRefusedAtLoad() {
        XCTAssertNotNil(buildError("nine_slice insets=[1,2,3]"))
        XCTAssertNotNil(buildError("nine_slice insets=[1,2,3,-4]"))
        XCTAssertNotNil(buildError("nine_slice width=0"))
        XCTAssertNil(buildError("nine_slice insets=[100,100,100,100] width=5 height=5"))
    }
}
