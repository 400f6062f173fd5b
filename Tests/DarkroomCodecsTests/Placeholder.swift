import XCTest

final class DarkroomCodecsTestsPlaceholder: XCTestCase { func testBuilds() {} }
