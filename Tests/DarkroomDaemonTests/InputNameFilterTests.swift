import XCTest
@testable import DarkroomDaemon

final class InputNameFilterTests: XCTestCase {
    let filter = InputNameFilter(include: ["*.jpg", "*.jpeg", "*.png"])

    func testIncludeGlobsIgnoreCase() {
        XCTAssertTrue(filter.accepts("photo.jpg"))
        XCTAssertTrue(filter.accepts("PHOTO.JPG"))
        XCTAssertTrue(filter.accepts("scan.Png"))
        XCTAssertFalse(filter.accepts("notes.txt"))
        XCTAssertFalse(filter.accepts("photo.jpg.gz"))
        XCTAssertTrue(InputNameFilter(include: ["IMG_*.jpg"]).accepts("img_0001.JPG"))
        XCTAssertFalse(InputNameFilter(include: ["IMG_*.jpg"]).accepts("DSC_0001.jpg"))
    }

    func testHiddenFilesAreNeverInputs() {
        XCTAssertFalse(filter.accepts(".photo.jpg"))
        XCTAssertFalse(filter.accepts("._photo.jpg"), "macOS resource forks")
    }

    func testNamesOfFilesStillBeingWrittenAreNeverInputs() {
        for name in ["photo.jpg.tmp", "photo.jpg.part", "photo.jpg.crdownload", "photo.jpg~", "photo.jpg.PART",
                     "photo.jpg.filepart", "#photo.jpg#", "~$photo.jpg"] {
            XCTAssertFalse(InputNameFilter(include: ["*"]).accepts(name), name)
        }
        XCTAssertTrue(InputNameFilter(include: ["*"]).accepts("photo.jpg"))
    }
}
