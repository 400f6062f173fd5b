@testable import DarkroomCore
import XCTest

final class CropFilterTests: XCTestCase {
    /// Every pixel distinct, so a wrong offset cannot go unnoticed.
    let input = Image(width: 20, height: 10) { x, y in Pixel(Float(x) / 20, Float(y) / 10, 0.5, 1) }

    private func crop(_ args: String) throws -> Image {
        try makeFilter("crop \(args)", as: CropFilter.self).apply(to: input, executor: smallTiles)
    }

    private func assertSubRect(_ out: Image, x: Int, y: Int, width: Int, height: Int,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(out.size, Size(width: width, height: height), file: file, line: line)
        guard out.size == Size(width: width, height: height) else { return }
        for j in 0..<height { for i in 0..<width where out[i, j] != input[x + i, y + j] {
            XCTFail("pixel (\(i), \(j)) is not input (\(x + i), \(y + j))", file: file, line: line)
            return
        } }
    }

    func testCropsExactlyTheRectangle() throws {
        assertSubRect(try crop("x=3 y=2 width=11 height=5"), x: 3, y: 2, width: 11, height: 5)
    }

    func testPercentagesReferToWidthAndHeight() throws {
        assertSubRect(try crop("x=25% y=50% width=50% height=50%"), x: 5, y: 5, width: 10, height: 5)
    }

    func testGravityPlacesTheSize() throws {
        assertSubRect(try crop("gravity=center width=10 height=4"), x: 5, y: 3, width: 10, height: 4)
        assertSubRect(try crop("gravity=south_east width=6 height=3"), x: 14, y: 7, width: 6, height: 3)
        assertSubRect(try crop("gravity=north_west width=6 height=3"), x: 0, y: 0, width: 6, height: 3)
        assertSubRect(try crop("gravity=west width=6 height=4"), x: 0, y: 3, width: 6, height: 4)
    }

    func testRectangleIsClampedAndNeverEmpty() throws {
        assertSubRect(try crop("x=15 y=2 width=50 height=50"), x: 15, y: 2, width: 5, height: 8)
        assertSubRect(try crop("x=40 y=30 width=5 height=5"), x: 19, y: 9, width: 1, height: 1)
        assertSubRect(try crop("gravity=center width=500 height=3"), x: 0, y: 3, width: 20, height: 3)
    }

    func testImpossibleRectanglesAreRejectedAtLoad() {
        XCTAssertNotNil(buildError("crop width=0"))
        XCTAssertNotNil(buildError("crop width=0%"))
        XCTAssertNotNil(buildError("crop x=100%"))
        XCTAssertNotNil(buildError("crop x=-3"))
        XCTAssertNotNil(buildError("crop x=4 gravity=center width=5"))
        XCTAssertNotNil(buildError("crop gravity=middle"))
    }

    func testWholeImageCropIsIdentity() throws {
        XCTAssertTrue(try makeFilter("crop", as: CropFilter.self).isIdentity)
        XCTAssertTrue(try makeFilter("crop width=100% height=100%", as: CropFilter.self).isIdentity)
        XCTAssertFalse(try makeFilter("crop width=99%", as: CropFilter.self).isIdentity)
    }

    func testInputRegionIsTheShiftedTile() throws {
        let filter = try makeFilter("crop x=3 y=2 width=11 height=5", as: CropFilter.self)
        XCTAssertEqual(filter.inputRegion(for: Rect(x: 1, y: 1, width: 4, height: 2), inputSize: input.size),
                       Rect(x: 4, y: 3, width: 4, height: 2))
        try assertInputRegionSuffices(filter, input: input, tile: Rect(x: 1, y: 1, width: 4, height: 2))
    }
}
