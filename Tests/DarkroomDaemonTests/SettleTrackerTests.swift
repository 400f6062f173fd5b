import XCTest
@testable import DarkroomDaemon

final class SettleTrackerTests: XCTestCase {
    let ms: UInt64 = 1_000_000
    func status(size: Int, mtime: Int64 = 1) -> FileStatus {
        FileStatus(size: size, modifiedNanoseconds: mtime, isRegularFile: true, isDirectory: false)
    }

    func testTakesAFileOnlyAfterItStayedUnchangedForTheSettleTime() {
        var tracker = SettleTracker(capacity: 10)
        let seen = status(size: 100)
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: seen, settleMilliseconds: 250, now: 0))
        XCTAssertEqual(tracker.settled(now: 100 * ms) { _ in seen }, [])
        XCTAssertEqual(tracker.settled(now: 260 * ms) { _ in seen }, ["/in/a.jpg"])
        XCTAssertTrue(tracker.isEmpty, "a settled file leaves the tracker")
    }

    func testAGrowingFileStartsItsWaitAgain() {
        var tracker = SettleTracker(capacity: 10)
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 100), settleMilliseconds: 250, now: 0))
        // Still being written at 200 ms: size changed.
        XCTAssertEqual(tracker.settled(now: 200 * ms) { _ in self.status(size: 200) }, [])
        XCTAssertEqual(tracker.settled(now: 300 * ms) { _ in self.status(size: 200) }, [], "250 ms from the change, not from the start")
        XCTAssertEqual(tracker.settled(now: 460 * ms) { _ in self.status(size: 200) }, ["/in/a.jpg"])
    }

    /// A writer that closes the file after each burst announces it again: the wait restarts
    /// from that announcement, since the file it announces has changed.
    func testAFileAnnouncedAgainWithAnotherSizeStartsItsWaitAgain() {
        var tracker = SettleTracker(capacity: 10)
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 100), settleMilliseconds: 250, now: 0))
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 200), settleMilliseconds: 250, now: 200 * ms))
        XCTAssertEqual(tracker.count, 1, "one file, announced twice")
        XCTAssertEqual(tracker.settled(now: 300 * ms) { _ in self.status(size: 200) }, [], "250 ms from the second announcement")
        XCTAssertEqual(tracker.settled(now: 460 * ms) { _ in self.status(size: 200) }, ["/in/a.jpg"])
    }

    /// The same announcement again (a scan finding a file already waiting) does not restart it.
    func testAFileAnnouncedAgainUnchangedKeepsItsPlace() {
        var tracker = SettleTracker(capacity: 10)
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 100), settleMilliseconds: 250, now: 0))
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 100), settleMilliseconds: 250, now: 200 * ms))
        XCTAssertEqual(tracker.settled(now: 260 * ms) { _ in self.status(size: 100) }, ["/in/a.jpg"])
    }

    func testATouchedFileStartsItsWaitAgain() {
        var tracker = SettleTracker(capacity: 10)
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 100, mtime: 1), settleMilliseconds: 250, now: 0))
        XCTAssertEqual(tracker.settled(now: 300 * ms) { _ in self.status(size: 100, mtime: 2) }, [])
        XCTAssertEqual(tracker.settled(now: 560 * ms) { _ in self.status(size: 100, mtime: 2) }, ["/in/a.jpg"])
    }

    func testAVanishedFileIsDropped() {
        var tracker = SettleTracker(capacity: 10)
        XCTAssertTrue(tracker.observe("/in/a.jpg", status: status(size: 1), settleMilliseconds: 0, now: 0))
        XCTAssertEqual(tracker.settled(now: 10 * ms) { _ in nil }, [])
        XCTAssertTrue(tracker.isEmpty)
    }

    func testRefusesNewFilesWhenFullButUpdatesKnownOnes() {
        var tracker = SettleTracker(capacity: 2)
        XCTAssertTrue(tracker.observe("/a", status: status(size: 1), settleMilliseconds: 0, now: 0))
        XCTAssertTrue(tracker.observe("/b", status: status(size: 1), settleMilliseconds: 0, now: 0))
        XCTAssertFalse(tracker.observe("/c", status: status(size: 1), settleMilliseconds: 0, now: 0))
        XCTAssertTrue(tracker.observe("/a", status: status(size: 2), settleMilliseconds: 0, now: 0))
        XCTAssertEqual(tracker.count, 2)
    }

    func testSettledFilesComeInTheOrderTheyArrived() {
        var tracker = SettleTracker(capacity: 100)
        let names = (0..<20).map { "/in/\(19 - $0).jpg" }
        for n in names { XCTAssertTrue(tracker.observe(n, status: status(size: 1), settleMilliseconds: 10, now: 0)) }
        XCTAssertEqual(tracker.settled(now: 20 * ms) { _ in self.status(size: 1) }, names)
    }
}
