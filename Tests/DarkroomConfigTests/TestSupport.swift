@testable import DarkroomCore
import XCTest
@testable import DarkroomConfig

/// Configs in tests live in a folder that need not exist: paths are only computed, never touched.
let testBase = "/srv/darkroom"

func parse(_ yaml: String, registry: FilterRegistry = .standard) throws(ConfigError) -> DaemonConfig {
    try ConfigLoader.parse(text: yaml, fileName: "config.yaml", baseDirectory: testBase, registry: registry)
}

/// The diagnostics a config that must be rejected produces; fails the test if it is accepted.
func diagnostics(_ yaml: String, registry: FilterRegistry = .standard,
                 file: StaticString = #filePath, line: UInt = #line) -> [ConfigDiagnostic] {
    do {
        let config = try parse(yaml, registry: registry)
        XCTFail("config was accepted: \(config)", file: file, line: line)
        return []
    } catch {
        return error.diagnostics
    }
}

/// Asserts exactly one diagnostic, at `at` (line, column), whose message contains every fragment.
func assertSingle(_ diags: [ConfigDiagnostic], at position: (Int, Int), _ fragments: String...,
                  file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(diags.count, 1, "\(diags)", file: file, line: line)
    guard let d = diags.first else { return }
    XCTAssertEqual(d.file, "config.yaml", file: file, line: line)
    XCTAssertEqual(d.line, position.0, "line of \(d)", file: file, line: line)
    XCTAssertEqual(d.column, position.1, "column of \(d)", file: file, line: line)
    for fragment in fragments {
        XCTAssertTrue(d.message.contains(fragment), "\"\(d.message)\" lacks \"\(fragment)\"", file: file, line: line)
    }
}

/// A filter whose parameters cover the kinds the colour filters lack, and whose init rejects
/// a contradiction between parameters (so the chain decoder's cross-parameter path is exercised).
struct FrameTestFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "frame", displayName: "Frame", categories: ["test"], description: "Test filter.",
        parameters: [
            ParameterDescriptor("width", .integer, "Width.", min: 1, max: 65535, slider: 1...100),
            ParameterDescriptor("height", .integer, "Height.", min: 1, max: 65535, slider: 1...100),
            ParameterDescriptor("color", .color, "Colour.", default: .color(.black)),
            ParameterDescriptor("offset", .point, "Offset.", default: .point(Length(0), Length(0))),
            ParameterDescriptor("fit", .choice(["inside", "cover"]), "Fit.", default: .choice("inside")),
        ])

    init(parameters: ResolvedParameters) throws(ParameterError) {
        guard parameters.has("width") || parameters.has("height") else {
            throw ParameterError("give width or height")
        }
    }

    var pointOperations: [any PointOperation] { [] }
}

let testRegistry = FilterRegistry(FilterRegistry.standard.filters + [FrameTestFilter.self])

/// The smallest valid watch, to which tests add what they check.
let minimalConfig = """
    watches:
      - path: ./inbox
        outputs:
          - path: ./outbox/{stem}.png
    """
