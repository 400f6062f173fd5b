import XCTest
@testable import DarkroomCore
@testable import DarkroomDrawing
import CDarkroomDraw

final class DrawingRegistryTests: XCTestCase {
    /// The shipped registry holds every standard filter and every drawing filter, each name once.
    func testTheShippedRegistryHoldsEveryFilterOnce() {
        let names = FilterRegistry.shipped.descriptors.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "a filter name is registered twice: \(names)")
        for name in FilterRegistry.standard.descriptors.map(\.name) { XCTAssertTrue(names.contains(name), name) }
    }

    /// The drawing shims open the system's cairo on demand, and report its version.
    func testCairoLoadsOnDemand() {
        var message = [CChar](repeating: 0, count: 256)
        XCTAssertEqual(dr_draw_load(Int32(DR_NEEDS_CAIRO | DR_NEEDS_PANGO | DR_NEEDS_RSVG), &message, message.count), 0,
                       String(cMessage: message))
        let version = dr_draw_cairo_version().map { String(cString: $0) } ?? ""
        XCTAssertTrue(version.hasPrefix("1."), "cairo version \(version)")
    }
}
