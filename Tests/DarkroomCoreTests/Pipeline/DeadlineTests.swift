@testable import DarkroomCore
import Glibc
import XCTest

/// `limits.max_seconds` becomes a ``Deadline`` in seconds: one a minute away has not passed a
/// tenth of a second later, one 20 ms away has. (The margins are a factor of 5 and of 600, so
/// no scheduling delay short of a minute can flip either.)
final class DeadlineTests: XCTestCase {
    func testSecondsAreSeconds() {
        let minute = Deadline.after(seconds: 60)
        let soon = Deadline.after(seconds: 0.02)
        usleep(100_000)
        XCTAssertFalse(minute.hasPassed, "a deadline 60 s away passed within a tenth of a second")
        XCTAssertTrue(soon.hasPassed, "a deadline 20 ms away had not passed 100 ms later")
    }

    func testAZeroOrNegativeTimeHasPassedAtOnceAndAHugeOneNever() {
        let zero = Deadline.after(seconds: 0), negative = Deadline.after(seconds: -5)
        usleep(1000)
        XCTAssertTrue(zero.hasPassed)
        XCTAssertTrue(negative.hasPassed)
        XCTAssertFalse(Deadline.after(seconds: .infinity).hasPassed, "no overflow back into the past")
    }
}
