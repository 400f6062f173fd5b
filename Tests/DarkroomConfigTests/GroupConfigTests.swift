import DarkroomConfig
@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// A group's sub-chain is read as a chain is: each nested step is checked against the registry
/// the config is read with, and a problem inside it is reported at its own line and column.
final class GroupConfigTests: XCTestCase {
    /// `- group:` at line 6; its `chain:` at line 8, the steps from line 9, indented 16.
    private func errors(_ steps: String, extra: String = "") -> [ConfigDiagnostic] {
        diagnostics(config(steps, extra: extra), registry: .shipped)
    }

    private func config(_ steps: String, extra: String = "") -> String {
        configWithChain("- group:\n    opacity: 0.5\n    chain:\n" + steps.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + extra)
    }

    func testAnUnknownFilterInsideAGroupPointsAtItsName() {
        // Line 10 is `      - sepai` indented 16 + 2: the name starts at column 19.
        assertSingle(errors("- invert\n- sepai"), at: (10, 19), "group.chain[1]", "unknown filter \"sepai\"", "did you mean \"sepia\"")
    }

    func testABadValueInsideANestedStepPointsAtTheValue() {
        // Line 9 is `- sepia: { intensity: 3 }` indented 16: the 3 is at column 39.
        assertSingle(errors("- sepia: { intensity: 3 }"), at: (9, 39), "group.chain[0].sepia.intensity", "expected a number from 0 to 1")
    }

    func testAnUnknownParameterInsideANestedStepIsNamed() {
        // At its value, as for a shape's unknown key.
        assertSingle(errors("- sepia: { intensty: 0.5 }"), at: (9, 38), "group.chain[0].sepia.intensty", "did you mean \"intensity\"")
    }

    func testAProblemInsideAShapeOfANestedDrawPointsAtTheShapesKey() {
        // Line 12 is `points: [1, 2, 3, 4]` indented 24: the value at column 33.
        assertSingle(errors("- draw:\n    shapes:\n      - shape: ellipse\n        points: [1, 2, 3, 4]"),
                     at: (12, 33), "group.chain[0].draw.shapes[0].points", "not ellipse")
    }

    func testAFilterThatChangesTheSizeIsRefusedAtItsStep() {
        assertSingle(errors("- sepia\n- resize: { width: 100 }"), at: (10, 19), "group.chain[1]", "resize changes the image's size",
                     "a group's layer keeps the image's size")
        assertSingle(errors("- crop: { width: 50% }"), at: (9, 19), "crop changes the image's size")
        assertSingle(errors("- normalise"), at: (9, 19), "normalise measures its whole input")
    }

    func testAnUnquotedColourInsideANestedStepGetsTheHint() {
        let d = errors("- draw:\n    shapes:\n      - shape: rect\n        fill: #ff0000")
        XCTAssertTrue(d.first?.message.contains("quote colours") ?? false, "\(d)")
    }

    func testGroupsNestFourDeepAndNoDeeper() throws {
        func nested(_ depth: Int) -> String {
            var chain = "[invert]"
            for _ in 0..<depth { chain = "[{ group: { chain: \(chain) } }]" }
            return "- group: { chain: \(chain) }"
        }
        XCTAssertNoThrow(try parse(configWithChain(nested(3)), registry: .shipped))
        let d = diagnostics(configWithChain(nested(4)), registry: .shipped)
        XCTAssertEqual(d.count, 1, "\(d)")
        XCTAssertTrue(d.first?.message.contains("sub-chains nest more than 4 deep") ?? false, "\(d)")
    }

    func testAnEmptyOrScalarChainIsRefused() {
        assertSingle(diagnostics(configWithChain("- group: { chain: [] }"), registry: .shipped), at: (6, 29), "group.chain",
                     "expected a list of filters", "empty")
        assertSingle(diagnostics(configWithChain("- group: { chain: sepia }"), registry: .shipped), at: (6, 29), "group.chain",
                     "expected a list of filters")
    }

    func testAGroupLoadsWithItsStepsResolvedAgainstTheShippedRegistry() throws {
        let config = try parse(config("- draw:\n    shapes: [{ shape: rect, width: 50%, height: 20%, fill: random }]\n- gaussian_blur: { radius: 2 }",
                                      extra: "\n    shadow: { offset: [4, 4], blur: 3 }"), registry: .shipped)
        let chain = config.watches[0].outputs[0].chain
        XCTAssertTrue(chain.usesRandom, "a random colour inside the group asks for a seed")
        let resolved = try chain.resolve(seed: 42)
        guard case .chain(let steps)? = resolved[0].parameters["chain"] else { return XCTFail("no chain") }
        XCTAssertEqual(steps.map(\.name), ["draw", "gaussian_blur"])
        XCTAssertEqual(resolved[0].parameters.randomNames, ["chain[0].draw.shapes[0].fill"])
        XCTAssertEqual(resolved[0].parameters.record("shadow")?.point("offset")?.0, Length(4))
    }

    /// The group example of docs/chains.md (the yaml block that starts `# group example`) and the one
    /// commented in config.example.yaml load as they are written.
    func testTheDocumentedGroupExamplesLoad() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let page = try String(contentsOf: root.appendingPathComponent("docs/chains.md"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```yaml\n# group example").dropFirst()
        XCTAssertEqual(blocks.count, 1)
        for block in blocks {
            let lines = block.components(separatedBy: "```")[0].components(separatedBy: "\n").drop { $0 != "chain:" }.dropFirst()
            let chain = lines.map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
            let config = try parse(configWithChain(chain), registry: .shipped)
            XCTAssertEqual(config.watches[0].outputs[0].chain.steps.map(\.name), ["group", "group"])
        }
        let example = try String(contentsOf: root.appendingPathComponent("config.example.yaml"), encoding: .utf8)
        let commented = example.components(separatedBy: "# - path: ./outbox/captioned/{stem}.jpg\n").dropFirst().first ?? ""
        let steps = commented.components(separatedBy: "\n").prefix { $0.hasPrefix("      #") }.dropFirst()
            .map { String($0.dropFirst("      #   ".count)) }
        XCTAssertFalse(steps.isEmpty, "the commented group output in config.example.yaml")
        let config = try parse(configWithChain(steps.map { String($0.dropFirst(2)) }.joined(separator: "\n")), registry: .shipped)
        XCTAssertEqual(config.watches[0].outputs[0].chain.steps.map(\.name), ["group"])
    }
}
