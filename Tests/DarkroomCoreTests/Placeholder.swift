import XCTest

final class DarkroomCoreTestsPlaceholder: XCTestCase { func testBuilds() {} }
