import XCTest

final class DarkroomConfigTestsPlaceholder: XCTestCase { func testBuilds() {} }
