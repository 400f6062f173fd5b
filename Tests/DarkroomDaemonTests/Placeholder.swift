import XCTest

final class DarkroomDaemonTestsPlaceholder: XCTestCase { func testBuilds() {} }
