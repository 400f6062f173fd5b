import XCTest
@testable import DarkroomCore

/// A point operation of a kind the core has never seen: it tints towards orange, so it turns
/// grey into colour and must say so.
struct TintOperation: PointOperation {
    var amount: Float
    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        for i in 0..<count {
            let p = pixels[i]
            pixels[i] = Pixel(p[0] + amount * (1 - p[0]), p[1] + amount * 0.5 * (1 - p[1]), p[2] * (1 - amount), p[3])
        }
    }
    var preservesGrey: Bool { false }
    var preservesOpacity: Bool { true }
}

/// An operation that fades alpha: an opaque source must then be written with alpha.
struct FadeOperation: PointOperation {
    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        for i in 0..<count { pixels[i][3] *= 0.5 }
    }
    var preservesGrey: Bool { true }
    var preservesOpacity: Bool { false }
}

struct TintTestFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "tint_test", displayName: "Tint (test)", categories: ["test"], description: "Test filter.",
        parameters: [ParameterDescriptor("amount", .scalar, "Amount.", default: .number(0.3), min: 0, max: 1,
                                         slider: 0...1, identity: .number(0))])
    var amount: Double
    init(parameters: ResolvedParameters) { amount = Self.described(parameters).number("amount") }
    var isIdentity: Bool { amount == 0 }
    var pointOperations: [any PointOperation] { [TintOperation(amount: Float(amount))] }
}

struct FadeTestFilter: PointFilter {
    static let descriptor = FilterDescriptor(name: "fade_test", displayName: "Fade (test)", categories: ["test"],
                                             description: "Test filter.")
    init(parameters: ResolvedParameters) {}
    var pointOperations: [any PointOperation] { [FadeOperation()] }
}

/// The standard filters and the test filters above: registered without touching the core.
let pointTestRegistry = FilterRegistry.standard.adding([TintTestFilter.self, FadeTestFilter.self])

final class PointOperationTests: XCTestCase {
    private func compile(_ text: String) throws -> CompiledChain {
        ChainCompiler.compile(try ChainSyntax.parse(text, registry: pointTestRegistry).resolve(seed: 3))
    }

    private func program(_ text: String) throws -> PointProgram {
        let chain = try compile(text)
        guard chain.stages.count == 1, case .point(_, let program) = chain.stages[0] else {
            XCTFail("\(text) is not one fused point stage")
            throw ParameterError("not fused")
        }
        return program
    }

    func testNeighbouringMatricesMultiplyAndCurvesCompose() throws {
        XCTAssertEqual(try program("sepia | hue angle=0.4 | invert").operations.count, 1)
        XCTAssertEqual(try program("gamma power=2 | posterize levels=4 | gamma power=0.5").operations.count, 1)
        // A tint has neither form: it splits the run, which is still one pass over the rows.
        let mixed = try program("sepia | invert | tint_test | gamma power=2 | posterize")
        XCTAssertEqual(mixed.operations.count, 3)
        XCTAssertNotNil(mixed.operations[0].matrix)
        XCTAssertNil(mixed.operations[1].matrix)
        XCTAssertNotNil(mixed.operations[2].curve)
    }

    func testFusedOperationsGiveWhatTheyGiveOneByOne() throws {
        let image = Image(width: 23, height: 9) { x, y in Pixel(Float(x) / 22, Float(y) / 8, 0.4, 0.25 + 0.75 * Float(x % 4) / 3).premultiplied }
        let steps = ["sepia intensity=0.6", "tint_test amount=0.4", "gamma power=1.7", "posterize levels=9", "hue angle=30deg", "fade_test"]
        let fused = try compile(steps.joined(separator: " | ")).run(image).image
        var oneByOne = image
        for step in steps { oneByOne = try compile(step).run(oneByOne).image }
        for (a, b) in zip(fused.pixels, oneByOne.pixels) {
            for i in 0..<4 { XCTAssertEqual(a[i], b[i], accuracy: 1e-4) }
        }
    }

    /// Encoders drop channels on these declarations, so an operation that paints colour or
    /// changes alpha must widen the output even though the core knows nothing of it.
    func testDeclaredGreyAndOpacityBehaviourReachesTheEncoderDecision() throws {
        let size = Size(width: 20, height: 10)
        func pipeline(_ text: String) throws -> Pipeline {
            Pipeline(chain: try compile(text), source: .init(size: size, isOpaque: true, isEightBit: true, isGrey: true))
        }
        XCTAssertTrue(try pipeline("gamma power=2 | posterize | invert").outputIsGrey)
        XCTAssertFalse(try pipeline("gamma power=2 | tint_test").outputIsGrey)
        XCTAssertFalse(try pipeline("posterize").outputMayHaveAlpha)
        XCTAssertTrue(try pipeline("posterize | fade_test").outputMayHaveAlpha)
        let grey = Image(width: size.width, height: size.height) { x, _ in Pixel(repeating: Float(x) / 19).with(alpha: 1) }
        let tinted = try compile("tint_test").run(grey).image
        XCTAssertTrue(tinted.pixels.contains { !$0.isGrey }, "the declaration matches what renders")
    }

    func testPosterizeKeepsOnlyItsLevels() throws {
        let image = Image(width: 256, height: 1) { x, _ in Pixel(Float(x) / 255, 1 - Float(x) / 255, 0.5, 1) }
        for levels in [2, 5, 6] {
            let out = try compile("posterize levels=\(levels)").run(image).image
            let steps = Float(levels - 1)
            for (p, q) in zip(image.pixels, out.pixels) {
                for c in 0..<3 {
                    XCTAssertEqual(q[c], (p[c] * steps).rounded() / steps, accuracy: 1e-6, "levels \(levels)")
                }
                XCTAssertEqual(q[3], 1)
            }
            XCTAssertEqual(Set(out.pixels.map { $0[0] }).count, levels)
        }
    }
}

private extension Pixel {
    func with(alpha: Float) -> Pixel { Pixel(self[0], self[1], self[2], alpha) }
}
