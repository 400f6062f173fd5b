import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomDrawing
import Foundation
import XCTest

/// A problem inside one of draw's shapes is reported at that shape's key, line and column,
/// whether the record's own checks find it (a kind, a range) or the filter does (a key of
/// another shape, path data).
final class DrawingConfigErrorTests: XCTestCase {
    private func errors(_ shapes: String) -> [ConfigDiagnostic] {
        diagnostics(configWithChain("- draw:\n    shapes:\n" + shapes), registry: .shipped)
    }

    func testAKeyOfAnotherShapePointsAtThatKey() {
        // Line 10 is `points: [1, 2, 3, 4]` indented 18; its value starts at column 27.
        assertSingle(errors("      - { shape: rect, fill: red }\n      - shape: ellipse\n        points: [1, 2, 3, 4]"),
                     at: (10, 27), "draw.shapes[1].points", "belongs to shape line, polygon, polyline, not ellipse")
    }

    func testBadPathDataPointsAtD() {
        assertSingle(errors("      - shape: path\n        d: \"M 0 0 L 10 10 Q 5\""),
                     at: (9, 22), "draw.shapes[0].d", "path data at character 18", "a number is missing at the end")
    }

    func testARangeErrorInsideAShape() {
        assertSingle(errors("      - shape: rect\n        line_width: -2"),
                     at: (9, 31), "draw.shapes[0].line_width", "expected a length in px or % from 0 to 10000")
    }

    func testTheDrawingExamplesOfTheReadmeLoad() throws {
        let chains = DrawingSnippets.all
        XCTAssertEqual(chains.count, 5, "the drawing examples of docs/chains.md")
        // Loaded as the daemon loads a config in the repository's folder: the files they name
        // (the logo beside config.example.yaml) read and checked by the asset store.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path
        let assets = AssetStore(hash: { _ in String(repeating: "0", count: 64) })
        for chain in chains {
            XCTAssertNoThrow(try ConfigLoader.parse(text: configWithChain(chain), fileName: "config.yaml", baseDirectory: root,
                                                    registry: .shipped, assets: assets), chain)
        }
    }
}
