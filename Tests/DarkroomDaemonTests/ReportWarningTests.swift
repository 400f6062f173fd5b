import XCTest
@testable import DarkroomDaemon

/// The input's `warning` lists each forgiven problem once, however many outputs met it.
final class ReportWarningTests: XCTestCase {
    func testEachWarningIsListedOnceEvenWhenItHoldsTheSeparator() {
        var draft = ReportDraft(watchName: "w", inputPath: "/in/a.png")
        let icc = "ICC profile ignored (libpng: iCCP: bad length); colours taken as sRGB"
        draft.warn(icc)
        draft.warn(icc)
        draft.warn("EXIF block unreadable")
        draft.warn(icc)
        draft.warn("EXIF block unreadable")
        XCTAssertEqual(draft.input.warning, icc + "; EXIF block unreadable")
    }
}
