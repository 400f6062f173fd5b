import DarkroomCodecs
@testable import DarkroomCore
import XCTest

/// A PNG whose chunks are all there but whose compressed image data stops before the last row
/// (an encoder cut short, then the file closed properly) is a truncated image, as a file cut
/// in the middle is: the report's code says `truncated`, not `corrupt`.
final class TruncatedImageDataTests: XCTestCase {
    let rows = (0..<8).map { y in (0..<8).map { x in UInt8(16 * x + y) } }

    func testTheWholeFileDecodes() throws {
        let image = try ImageCodec.decode(GreyPNG.make(rows: rows)).image
        XCTAssertEqual(image.size, Size(width: 8, height: 8))
        XCTAssertEqual(Int((image[7, 7][0] * 255).rounded()), 16 * 7 + 7)
    }

    func testImageDataEndingBeforeTheLastRowIsTruncated() {
        for stored in [0, 1, 7] {
            do {
                _ = try ImageCodec.decode(GreyPNG.make(rows: rows, storedRows: stored))
                XCTFail("\(stored) of 8 rows decoded without an error")
            } catch {
                XCTAssertEqual(error.code, .truncated, "\(stored) of 8 rows: \(error.message)")
            }
        }
    }
}
