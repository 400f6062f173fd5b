import XCTest
import DarkroomCore
@testable import DarkroomDrawing
import CDarkroomDraw

final class DrawingRegistryTests: XCTestCase {
    /// The shipped registry holds every standard filter and every drawing filter, each name once.
    func testTheShippedRegistryHoldsEveryFilterOnce() {
        let names = FilterRegistry.shipped.descriptors.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "a filter name is registered twice: \(names)")
        for name in FilterRegistry.standard.descriptors.map(\.name) { XCTAssertTrue(names.contains(name), name) }
    }

    /// The drawing shims link against the system's cairo.
    func testCairoIsLinked() {
        XCTAssertFalse(String(cString: dr_draw_cairo_version()).isEmpty)
    }
}
