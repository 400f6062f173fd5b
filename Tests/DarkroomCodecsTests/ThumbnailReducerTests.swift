@testable import DarkroomCore
import XCTest
@testable import DarkroomCodecs

/// The box average behind the daemon's thumbnails: every pixel counted once, in its cell.
final class ThumbnailReducerTests: XCTestCase {
    func testEachCellIsTheMeanOfItsPixelsFloatOr8BitInAnyOrder() {
        let source = Image(width: 6, height: 4) { x, y in Pixel(Float(x) / 5, Float(y) / 3, 0.5, 1) }
        let reducer = ThumbnailReducer(sourceSize: source.size, size: Size(width: 3, height: 2))
        // Rows 2…3 first, as float; rows 0…1 as 8-bit samples.
        source.pixels.withUnsafeBufferPointer { reducer.add(rows: 2, count: 2, pixels: $0.baseAddress! + 12, stride: 6) }
        XCTAssertNil(reducer.image(), "not every row yet")
        let samples: [UInt8] = source.pixels.prefix(12).flatMap { p in (0..<3).map { UInt8((p[$0] * 255).rounded()) } }
        samples.withUnsafeBufferPointer { reducer.add(rgb8Rows: 0, count: 2, samples: $0.baseAddress!, rowBytes: 18) }
        let image = reducer.image()!
        XCTAssertEqual(image.size, Size(width: 3, height: 2))
        for cy in 0..<2 {
            for cx in 0..<3 {
                var sum = Pixel.zero
                for y in 2 * cy..<2 * cy + 2 { for x in 2 * cx..<2 * cx + 2 { sum += source[x, y] } }
                let want = sum / 4, got = image[cx, cy]
                for c in 0..<4 { XCTAssertEqual(got[c], want[c], accuracy: 0.003, "cell \(cx),\(cy) channel \(c)") }
            }
        }
    }

    func testThePictureIsTurnedUprightAndFittedAsResizeWould() {
        XCTAssertEqual(ThumbnailReducer.fitted(Size(width: 2725, height: 2225), box: 160), Size(width: 160, height: 131))
        XCTAssertEqual(ThumbnailReducer.fitted(Size(width: 90, height: 50), box: 160), Size(width: 90, height: 50), "never enlarged")
        // A stored 4×2 image whose left half is red, turned 90° clockwise: the red is on top.
        let stored = Image(width: 4, height: 2) { x, _ in x < 2 ? Pixel(1, 0, 0, 1) : Pixel(0, 0, 1, 1) }
        let reducer = ThumbnailReducer(sourceSize: stored.size, size: Size(width: 2, height: 1))
        stored.pixels.withUnsafeBufferPointer { reducer.add(rows: 0, count: 2, pixels: $0.baseAddress!, stride: 4) }
        let upright = reducer.image(orientation: .rotate90)!
        XCTAssertEqual(upright.size, Size(width: 1, height: 2))
        XCTAssertEqual(upright[0, 0], Pixel(1, 0, 0, 1))
        XCTAssertEqual(upright[0, 1], Pixel(0, 0, 1, 1))
    }
}
