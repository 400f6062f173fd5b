import DarkroomDrawing
import XCTest
@testable import DarkroomCore

/// An angle written as a bare number beyond a full turn is flagged wherever it stands: a
/// filter's own parameter, a field of a record (an arc's start), a step of a sub-chain.
final class BareAngleWarningTests: XCTestCase {
    func testTheMessageSaysWhatTheNumberIsReadAsAndHowToWriteDegrees() {
        XCTAssertEqual(ParameterDescriptor.bareAngleWarning("90"), "90 is read as radians (5156.6°); write 90deg")
        XCTAssertEqual(ParameterDescriptor.bareAngleWarning(" -7 "), "-7 is read as radians (-401.1°); write -7deg")
        for fine in ["6.28", "-1.5", "0", "90deg", "90°", "2rad", "random"] {
            XCTAssertNil(ParameterDescriptor.bareAngleWarning(fine), fine)
        }
    }

    func testRecordsAndSubChainsAreSearched() throws {
        let registry = FilterRegistry.shipped
        let draw = try XCTUnwrap(registry.type(named: "draw")?.descriptor.parameter(named: "shapes"))
        let shapes = RawValue.list([
            .mapping([RawField("shape", .scalar("arc")), RawField("start", .scalar("1"))]),
            .mapping([RawField("shape", .scalar("arc")), RawField("start", .scalar("270"))]),
        ])
        let inRecords = draw.bareAngleWarnings(shapes, registry: registry)
        XCTAssertEqual(inRecords.map(\.location), [[.index(1), .key("start")]])
        XCTAssertEqual(inRecords.first?.message, "270 is read as radians (15469.9°); write 270deg")

        XCTAssertEqual(ChainSyntax.bareAngleWarnings("rotate angle=45 | group chain=[hue angle=180 | sepia] | hue angle=3",
                                                     registry: registry),
                       ["rotate.angle: 45 is read as radians (2578.3°); write 45deg",
                        "group.chain[0].hue.angle: 180 is read as radians (10313.2°); write 180deg"])
    }
}
