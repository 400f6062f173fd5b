@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// A config whose single output has `chain` (lines start at line 6, indented 10 spaces).
func configWithChain(_ chain: String) -> String {
    """
    watches:
      - path: ./inbox
        outputs:
          - path: ./outbox/{stem}.png
            chain:
    \(chain.split(separator: "\n").map { "          " + $0 }.joined(separator: "\n"))

    """
}

final class ChainDecodingTests: XCTestCase {
    private func withChain(_ chain: String) -> String { configWithChain(chain) }

    func testParameterErrorPointsAtTheValueWithTheFullPath() {
        assertSingle(diagnostics(withChain("- invert\n- frame: { width: wide }"), registry: testRegistry),
                     at: (7, 29), "watches[0].outputs[0].chain[1] frame.width: expected an integer from 1 to 65535, got \"wide\"")
        assertSingle(diagnostics(withChain("- sepia:\n    intensity: 1.5")), at: (7, 26),
                     "chain[0] sepia.intensity: expected a number from 0 to 1, got \"1.5\"")
    }

    func testUnknownFilterAndParameterSuggestTheNearestName() {
        assertSingle(diagnostics(withChain("- sepai")), at: (6, 13),
                     "watches[0].outputs[0].chain[0]: unknown filter \"sepai\" (did you mean \"sepia\"?)")
        assertSingle(diagnostics(withChain("- gamma: { powr: 2 }")), at: (6, 22),
                     "chain[0] gamma.powr: unknown key (did you mean \"power\"?)")
    }

    func testCrossParameterErrorPointsAtTheFilter() {
        assertSingle(diagnostics(withChain("- invert\n- frame: { fit: cover }"), registry: testRegistry),
                     at: (7, 13), "chain[1]: frame: give width or height")
    }

    func testEveryBadParameterOfAStepIsReported() {
        let diags = diagnostics(withChain("- color_controls: { saturation: -1, brightness: 3, contrast: x }"))
        XCTAssertEqual(diags.map(\.column), [43, 59, 72])
        XCTAssertEqual(diags.map(\.line), [6, 6, 6])
    }

    func testRandomIsRefusedWhereThereIsNothingToDrawFrom() {
        assertSingle(diagnostics(withChain("- frame: { width: 4, fit: random }"), registry: testRegistry),
                     at: (6, 37), "frame.fit: expected one of inside, cover, got \"random\"")
    }

    func testListsAndPointsBecomeRawLists() throws {
        let config = try parse(withChain("- frame: { width: random, offset: [-50%, 12.5%], color: [1, 0, 0] }"), registry: testRegistry)
        let step = try XCTUnwrap(config.watches.first?.outputs.first?.chain.steps.first)
        XCTAssertEqual(step.arguments.map(\.name), ["width", "offset", "color"])
        XCTAssertEqual(step.arguments[0].argument, .random)
        XCTAssertEqual(step.arguments[1].argument, .value(.point(Length(-50, percent: true), Length(12.5, percent: true))))
        XCTAssertEqual(step.arguments[2].argument, .value(.color(RGBA(1, 0, 0))))
    }

    func testUnquotedHashColourGetsAHint() {
        let diags = diagnostics(withChain("- frame:\n    width: 2\n    color: #ff0000"), registry: testRegistry)
        XCTAssertEqual(diags.map(\.line), [8])
        XCTAssertTrue(diags.first?.message.contains("frame.color: expected a colour") == true, "\(diags)")
        XCTAssertTrue(diags.first?.message.contains("quote colours") == true, "\(diags)")
    }

    func testMalformedStepShapes() {
        assertSingle(diagnostics(withChain("- { sepia: {}, invert: {} }")), at: (6, 13),
                     "chain[0]: expected a filter name or one filter with its parameters")
        assertSingle(diagnostics(withChain("- sepia: 0.5")), at: (6, 20),
                     "chain[0] sepia: expected a mapping of intensity, got \"0.5\"")
        assertSingle(diagnostics(withChain("- frame: { width: 2, offset: { x: 1 } }"), registry: testRegistry),
                     at: (6, 40), "frame.offset: expected a point [x, y]", "got {x: \"1\"}")
    }
}

/// Records in YAML: block or flow mappings inside a list, errors at the node inside them.
final class RecordDecodingTests: XCTestCase {
    private let registry = FilterRegistry.standard.adding([StopsTestFilter.self])

    private func config(_ chain: String) -> String { configWithChain(chain) }

    func testRecordsAreReadFromBlockAndFlowMappings() throws {
        let yaml = config("- stops:\n    stops:\n      - { at: 0, color: red }\n      - at: 1\n        color: \"#0000ff\"")
        let config = try parse(yaml, registry: registry)
        let resolved = try config.watches[0].outputs[0].chain.resolve(seed: 1)
        XCTAssertEqual(resolved[0].parameters.records("stops")?.map { $0.color("color") }, [RGBA(1, 0, 0), RGBA(0, 0, 1)])
    }

    func testAnErrorInsideARecordPointsAtItsNode() {
        // Line 9 is `- at: 2`, indented 16; its value is at column 23.
        assertSingle(diagnostics(config("- stops:\n    stops:\n      - { at: 0 }\n      - at: 2"), registry: registry),
                     at: (9, 23), "chain[0] stops.stops[1].at: expected a number from 0 to 1, got \"2\"")
        assertSingle(diagnostics(config("- stops:\n    stops:\n      - { at: 0, colour: red }"), registry: registry),
                     at: (8, 36), "stops.stops[0].colour: unknown key \"colour\" (did you mean \"color\"?)")
        assertSingle(diagnostics(config("- stops:\n    stops:\n      - at: 0\n        color: #ff0000"), registry: registry),
                     at: (9, 25), "stops.stops[0].color: expected a colour", "quote colours")
    }
}

/// A filter with a list of records, registered only in these tests.
struct StopsTestFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "stops", displayName: "Stops", categories: ["test"], description: "A list of stops.",
        parameters: [ParameterDescriptor("stops", .records([
            ParameterDescriptor("at", .scalar, "Where, 0…1.", min: 0, max: 1, required: true),
            ParameterDescriptor("color", .color, "Its colour.", default: .color(.black)),
        ]), "The stops.", required: true)])

    init(parameters: ResolvedParameters) {}
    var pointOperations: [any PointOperation] { [] }
}
