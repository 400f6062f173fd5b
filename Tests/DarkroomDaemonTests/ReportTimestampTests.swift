import Foundation
import XCTest
@testable import DarkroomDaemon

/// Report timestamps read back as the moment they were written, on every day of the year:
/// `darkroom report` parses them with its own formatter-free reader, checked here against
/// Foundation's ISO 8601 formatter.
final class ReportTimestampTests: XCTestCase {
    func testEveryDayOfALeapAndACommonYearReadsBackAsFoundationReadsIt() throws {
        let reference = ISO8601DateFormatter()
        reference.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        for year in [2024, 2026] {
            let first = try XCTUnwrap(calendar.date(from: DateComponents(year: year, month: 1, day: 1, hour: 13, minute: 7, second: 9)))
            for day in 0..<366 {
                let date = first.addingTimeInterval(Double(day) * 86400 + 0.25)
                let text = ISOTime.format(date)
                XCTAssertEqual(text, reference.string(from: date))
                let parsed = try XCTUnwrap(ISOTime.parseUTC(text), text)
                XCTAssertEqual(parsed.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 0.0005, text)
            }
        }
    }

    func testOnlyTheReportsOwnFormIsRead() {
        XCTAssertNil(ISOTime.parseUTC("2026-02-30T10:00:00"), "no zone")
        XCTAssertNil(ISOTime.parseUTC("2026-13-01T10:00:00.000Z"), "month 13")
        XCTAssertNil(ISOTime.parseUTC("2026-02-01 10:00:00.000Z"), "a space for the T")
    }
}
