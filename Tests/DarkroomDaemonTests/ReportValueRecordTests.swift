@testable import DarkroomCore
import Foundation
import XCTest
@testable import DarkroomDaemon

/// Records (shapes, gradient stops) in reports: JSON objects whose fields read as a filter's own
/// parameters do (angles in degrees), and which read back from the JSON unchanged.
final class ReportValueRecordTests: XCTestCase {
    func testRecordsAreWrittenAsObjectsAndReadBack() throws {
        let fields = [ParameterDescriptor("at", .scalar, "Where."), ParameterDescriptor("turn", .angle, "A turn."),
                      ParameterDescriptor("color", .color, "Colour.")]
        let stop = ResolvedParameters(entries: [("at", .number(0.5)), ("turn", .number(.pi / 2)), ("color", .color(RGBA(1, 0, 0)))])
        let value = ReportValue(.records([stop]), kind: .records(fields))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        XCTAssertEqual(json, ##"[{"at":0.5,"color":"#ff0000ff","turn":"90deg"}]"##)
        XCTAssertEqual(try JSONDecoder().decode(ReportValue.self, from: Data(json.utf8)), value)
    }
}
