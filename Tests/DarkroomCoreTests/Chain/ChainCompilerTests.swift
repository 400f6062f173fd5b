import XCTest
@testable import DarkroomCore

final class ChainCompilerTests: XCTestCase {
    private func compile(_ text: String) throws -> CompiledChain {
        ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 7))
    }

    func testAdjacentPointFiltersFuseIntoOnePass() throws {
        let chain = try compile("sepia | hue angle=0.3 | invert | color_controls contrast=1.5")
        XCTAssertEqual(chain.stages.count, 1)
        XCTAssertEqual(chain.stages[0].names, ["sepia", "hue", "invert", "color_controls"])
        guard case .point(_, let program) = chain.stages[0] else { return XCTFail("expected a point stage") }
        XCTAssertEqual(program.operations.count, 1, "four affine filters must multiply into one matrix")
    }

    func testIdentityFiltersAreSkipped() throws {
        let chain = try compile("sepia intensity=0 | gamma power=1 | hue | color_controls")
        XCTAssertTrue(chain.stages.isEmpty)
    }

    func testFusedResultEqualsSequentialApplication() throws {
        let image = Image(width: 17, height: 9) { x, y in Pixel(Float(x) / 16, Float(y) / 8, 0.5, 1) }
        let text = ["sepia intensity=0.7", "hue angle=40deg", "gamma power=1.8", "color_controls saturation=1.3 contrast=1.2"]
        let fused = try compile(text.joined(separator: " | ")).run(image).image
        var sequential = image
        for step in text { sequential = try compile(step).run(sequential).image }
        for (a, b) in zip(fused.pixels, sequential.pixels) {
            for i in 0..<4 { XCTAssertEqual(a[i], b[i], accuracy: 1e-4) }
        }
    }

    func testInversePairCancelsOut() throws {
        let chain = try compile("invert | invert")
        XCTAssertTrue(chain.stages.isEmpty || {
            if case .point(_, let program) = chain.stages[0] { return program.isEmpty }
            return false
        }())
    }

    func testChainSyntaxErrorsNameFilterAndParameter() {
        XCTAssertThrowsError(try ChainSyntax.parse("sepai")) { error in
            XCTAssertTrue("\(error)".contains("did you mean \"sepia\""), "\(error)")
        }
        XCTAssertThrowsError(try ChainSyntax.parse("sepia intensity=2")) { error in
            XCTAssertEqual("\(error)", "sepia.intensity: expected a number from 0 to 1, got \"2\"")
        }
        XCTAssertThrowsError(try ChainSyntax.parse("gamma powr=2")) { error in
            XCTAssertTrue("\(error)".contains("did you mean \"power\""), "\(error)")
        }
        XCTAssertThrowsError(try ChainSyntax.parse("invert | | sepia"))
    }
}
