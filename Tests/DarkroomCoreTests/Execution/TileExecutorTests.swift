import XCTest
@testable import DarkroomCore

final class TileExecutorTests: XCTestCase {
    func testTilesCoverTheImageExactlyOnce() {
        let executor = TileExecutor(tileSize: 7)
        let size = Size(width: 30, height: 16)
        var covered = [Int](repeating: 0, count: size.area)
        for tile in executor.tiles(covering: size) {
            for y in tile.y..<tile.maxY { for x in tile.x..<tile.maxX { covered[y * size.width + x] += 1 } }
        }
        XCTAssertEqual(Set(covered), [1])
    }

    func testParallelRenderEqualsSerialRender() {
        let body: (Rect, inout TileWriter) -> Void = { tile, out in
            for y in tile.y..<tile.maxY { for x in tile.x..<tile.maxX { out[x, y] = Pixel(Float(x), Float(y), 0, 1) } }
        }
        let size = Size(width: 301, height: 157)
        let serial = TileExecutor(tileSize: 32, concurrency: 1).render(size: size, body)
        let parallel = TileExecutor(tileSize: 32, concurrency: 4).render(size: size, body)
        XCTAssertEqual(serial, parallel)
        XCTAssertEqual(parallel[300, 156], Pixel(300, 156, 0, 1))
    }
}
