import DarkroomCodecs
import DarkroomCore
import XCTest

/// Auto levels in its plainest form, against the analysis contract: measure each channel's range,
/// then stretch it to 0…1 with one colour matrix (a point filter decided by the statistic).
private struct LevelsTestFilter: AnalysisFilter {
    static let descriptor = FilterDescriptor(name: "levels_test", displayName: "Levels (test)", categories: ["test"], description: "")
    init(parameters: ResolvedParameters) {}
    var statisticRequest: StatisticRequest { StatisticRequest() }
    func resolved(with statistics: ImageStatistics) -> any Filter {
        let lo = statistics.minimum, hi = statistics.maximum
        let k = (0..<3).map { c in Double(1 / max(hi[c] - lo[c], 1e-6)) }
        return Stretch(matrix: .rgb([k[0], 0, 0, 0, k[1], 0, 0, 0, k[2]], bias: (0..<3).map { -Double(lo[$0]) * k[$0] }))
    }
    var worstCase: any Filter { Stretch(matrix: .identity) }

    struct Stretch: PointFilter {
        static let descriptor = LevelsTestFilter.descriptor
        let matrix: ColorMatrix
        init(matrix: ColorMatrix) { self.matrix = matrix }
        init(parameters: ResolvedParameters) { matrix = .identity }
        var pointOperations: [any PointOperation] { [matrix] }
    }
}

/// A render with an analysis stage: the statistic is measured on what the chain before it makes
/// of the decoded file (one more decode), then the rest runs on it.
final class AnalysisRenderTests: XCTestCase {
    func testTheStatisticIsMeasuredOnTheFileAndTheRestRunsOnIt() throws {
        let image = Image(width: 40, height: 24) { x, y in
            Pixel(0.25 + 0.5 * Float(x) / 39, 0.4 + 0.2 * Float(y) / 23, 0.5, 1)
        }
        let input = try ImageCodec.encode(image, options: EncodeOptions(format: .png))
        let registry = FilterRegistry.standard.adding([LevelsTestFilter.self])
        let chain = ChainCompiler.compile(try ChainSyntax.parse("crop width=30 | levels_test | resize width=15",
                                                                registry: registry).resolve(seed: 1))
        let plan = ChainRenderer.plan(chain, header: try ImageCodec.readInfo(input))
        XCTAssertEqual(plan.pipeline.outputSize, Size(width: 15, height: 12), "planned on the worst case")
        let output = try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: .png), limits: DecodeLimits())
        let out = try ImageCodec.decode(output.bytes).image
        XCTAssertEqual(out.size, Size(width: 15, height: 12))
        let reds = out.pixels.map { $0[0] }, greens = out.pixels.map { $0[1] }
        // Stretched over the cropped part only (its red spans 0.25…0.63), then resized.
        XCTAssertLessThan(reds.min()!, 0.06)
        XCTAssertGreaterThan(reds.max()!, 0.94)
        XCTAssertLessThan(greens.min()!, 0.06)
        XCTAssertGreaterThan(greens.max()!, 0.94)
        XCTAssertEqual(output.stats.nodes.first?.names.first, "decode")
    }
}
