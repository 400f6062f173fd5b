import DarkroomConfig
@testable import DarkroomCore
import XCTest
@testable import DarkroomDaemon

final class WatchLayoutTests: XCTestCase {
    func watch(recursive: Bool, done: String? = nil) -> WatchConfig {
        WatchConfig(name: "photos", path: "/srv/in", recursive: recursive, doneDirectory: done,
                    failedDirectory: "/srv/in/failed", reportsDirectory: "/srv/reports",
                    outputs: [OutputConfig(pathTemplate: "/srv/in/out/{watch}/{stem}.jpg", format: .jpeg, chain: ChainSpec([]))])
    }

    func testReportsDoneAndFailedPathsMirrorTheRelativePath() {
        let layout = WatchLayout(watch(recursive: true, done: "/srv/done"), among: [watch(recursive: true, done: "/srv/done")])
        XCTAssertEqual(layout.relativePath(of: "/srv/in/2024/a.jpg"), "2024/a.jpg")
        XCTAssertEqual(layout.reportPath(forRelative: "2024/a.jpg"), "/srv/reports/2024/a.jpg.json")
        XCTAssertEqual(layout.donePath(forRelative: "2024/a.jpg"), "/srv/done/2024/a.jpg")
        XCTAssertEqual(layout.failedPath(forRelative: "2024/a.jpg"), "/srv/in/failed/2024/a.jpg")
        XCTAssertNotEqual(layout.reportPath(forRelative: "a/x.jpg"), layout.reportPath(forRelative: "b/x.jpg"))
    }

    func testNonRecursiveWatchTakesOnlyTopLevelFiles() {
        let w = watch(recursive: false)
        let layout = WatchLayout(w, among: [w])
        XCTAssertEqual(layout.relativePath(of: "/srv/in/a.jpg"), "a.jpg")
        XCTAssertNil(layout.relativePath(of: "/srv/in/sub/a.jpg"))
        XCTAssertNil(layout.relativePath(of: "/srv/other/a.jpg"))
        XCTAssertNil(layout.relativePath(of: "/srv/input/a.jpg"), "a sibling with a longer name is not inside")
        XCTAssertFalse(layout.watchesFolder("/srv/in/sub"))
    }

    func testFailedAndOutputFoldersInsideAWatchAreNeverWatched() {
        let w = watch(recursive: true)
        let layout = WatchLayout(w, among: [w])
        XCTAssertTrue(layout.watchesFolder("/srv/in"))
        XCTAssertTrue(layout.watchesFolder("/srv/in/2024"))
        XCTAssertFalse(layout.watchesFolder("/srv/in/failed"))
        XCTAssertFalse(layout.watchesFolder("/srv/in/failed/2024"))
        XCTAssertFalse(layout.watchesFolder("/srv/in/out/photos"), "the output folder, {watch} filled in")
        XCTAssertNil(layout.relativePath(of: "/srv/in/out/photos/a.jpg"))
        XCTAssertTrue(layout.accepts("/srv/in/2024/a.JPG"))
        XCTAssertFalse(layout.accepts("/srv/in/2024/.a.jpg"))
    }
}
