import XCTest
@testable import DarkroomCore

/// A filter with a list of records and one record, as gradients' stops and a group's shadow
/// will have: registered only here, the way any program adds filters.
struct RecordsTestFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "records", displayName: "Records", categories: ["test"], description: "Stops and a shadow.",
        parameters: [
            ParameterDescriptor("stops", .records([
                ParameterDescriptor("at", .scalar, "Where, 0…1.", min: 0, max: 1, slider: 0...1, required: true),
                ParameterDescriptor("color", .color, "Its colour.", default: .color(.black)),
                ParameterDescriptor("angle", .angle, "A turn.", default: .number(0), slider: 0...1),
            ]), "The stops.", default: .records([])),
            ParameterDescriptor("shadow", .record([
                ParameterDescriptor("offset", .point, "Shift.", default: .point(Length(2), Length(2))),
                ParameterDescriptor("blur", .scalar, "Blur.", default: .number(0), min: 0, max: 100, slider: 0...10),
            ]), "A shadow.", default: .record(ResolvedParameters())),
        ])

    let stops: [DescribedParameters]
    let shadow: DescribedParameters

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        stops = p.records("stops")
        shadow = p.record("shadow")
    }

    var pointOperations: [any PointOperation] { [] }
}

final class RecordParameterTests: XCTestCase {
    let registry = FilterRegistry.standard.adding([RecordsTestFilter.self])

    private func resolve(_ text: String, seed: UInt64 = 1) throws -> ResolvedFilter {
        try ChainSyntax.parse(text, registry: registry).resolve(seed: seed)[0]
    }

    private func error(_ text: String) -> String {
        do {
            _ = try ChainSyntax.parse(text, registry: registry)
            XCTFail("accepted: \(text)")
            return ""
        } catch { return error.message }
    }

    func testRecordsAreCheckedDefaultedAndDrawnPerField() throws {
        let resolved = try resolve("records stops=[{at=0, color=red}, {at=1, color=random, angle=90deg}] shadow={blur=3}")
        let filter = try XCTUnwrap(resolved.filter as? RecordsTestFilter)
        XCTAssertEqual(filter.stops.count, 2)
        XCTAssertEqual(filter.stops[0].color("color"), RGBA(1, 0, 0))
        XCTAssertEqual(filter.stops[0].number("angle"), 0, "a field's default fills in")
        XCTAssertEqual(filter.stops[1].number("at"), 1)
        XCTAssertEqual(filter.stops[1].number("angle"), .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(filter.shadow.number("blur"), 3)
        XCTAssertEqual(filter.shadow.point("offset").0, Length(2), "a record's default field fills in")
        // The random colour is drawn per job, recorded by its path, and the same for the same seed.
        XCTAssertEqual(resolved.parameters.randomNames, ["stops[1].color"])
        let again = try XCTUnwrap(try resolve("records stops=[{at=0, color=red}, {at=1, color=random}]").filter as? RecordsTestFilter)
        XCTAssertEqual(again.stops[1].color("color"), filter.stops[1].color("color"))
        let other = try XCTUnwrap(try resolve("records stops=[{at=0, color=red}, {at=1, color=random}]", seed: 2).filter as? RecordsTestFilter)
        XCTAssertNotEqual(other.stops[1].color("color"), filter.stops[1].color("color"))
    }

    func testAnAbsentRecordParameterTakesItsDefault() throws {
        let filter = try XCTUnwrap(try resolve("records").filter as? RecordsTestFilter)
        XCTAssertTrue(filter.stops.isEmpty)
        XCTAssertEqual(filter.shadow.number("blur"), 0)
    }

    func testErrorsSayWhereInsideTheRecordsTheProblemIs() {
        XCTAssertEqual(error("records stops=[{at=0}, {at=2}]"), "records.stops[1].at: expected a number from 0 to 1, got \"2\"")
        XCTAssertEqual(error("records stops=[{at=0, colour=red}]"),
                       "records.stops[0].colour: unknown key \"colour\" (did you mean \"color\"?)")
        XCTAssertEqual(error("records stops=[{color=red}]"), "records.stops[0]: needs at (Where, 0…1.)")
        XCTAssertEqual(error("records stops=[{at=0, at=1}]"), "records.stops[0].at: given twice")
        XCTAssertEqual(error("records stops=red"), "records.stops: expected a list of mappings of at, color, angle, got \"red\"")
        XCTAssertEqual(error("records shadow=[1, 2]"),
                       "records.shadow: expected a mapping of offset, blur, got [\"1\", \"2\"]")
        XCTAssertEqual(error("records shadow={blur=random, offset=random}"),
                       "records.shadow.offset: expected a point [x, y] in px or %, or center, top_left, top_right, bottom_left, bottom_right, got \"random\" (random is for numbers and colours)")
        XCTAssertTrue(error("records stops=[{at=0}").contains("never closed"))
        XCTAssertTrue(error("records stops=[{at=0]}").contains("closes no"))
    }

    /// What a report writes for a records value reads back, through the chain syntax, as the
    /// same value: reports paste back into chains. (Colours are written as 8-bit hex, so the
    /// comparison is of the written form: a random colour comes back to within 1/510.)
    func testARecordsValueReadsBackAsItself() throws {
        let first = try resolve("records stops=[{at=0.25, color=random, angle=30deg}] shadow={offset=[1, 5%]}", seed: 9)
        let text = "records " + first.parameters.entries.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        let second = try resolve(text)
        XCTAssertEqual(first.parameters.entries.map(\.value.description), second.parameters.entries.map(\.value.description), text)
        XCTAssertTrue(text.contains("color=#"), text)
    }
}
