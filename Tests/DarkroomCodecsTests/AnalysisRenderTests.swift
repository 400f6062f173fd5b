import DarkroomCodecs
@testable import DarkroomCore
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

/// Crops its input to the size its statistic was measured on: makes the measured size visible
/// in the output. Allows a preview.
private struct MeasuredSizeTestFilter: AnalysisFilter {
    static let descriptor = FilterDescriptor(name: "measured_size", displayName: "Measured size (test)", categories: ["test"], description: "")
    init(parameters: ResolvedParameters) {}
    var statisticRequest: StatisticRequest { StatisticRequest(preview: true) }
    func resolved(with statistics: ImageStatistics) -> any Filter { Self.crop(statistics.size.width, statistics.size.height) }
    var worstCase: any Filter { Self.crop(1 << 20, 1 << 20) }

    private static func crop(_ width: Int, _ height: Int) -> any Filter {
        try! ChainSyntax.parse("crop width=\(width) height=\(height)").resolve(seed: 1)[0].filter
    }
}

/// A statistic that allows a preview is measured on the JPEG's 1/8 decode, when only point
/// filters come before it; otherwise on the full decode.
final class AnalysisPreviewTests: XCTestCase {
    private let registry = FilterRegistry.standard.adding([MeasuredSizeTestFilter.self])

    private func outputSize(_ chain: String, _ input: [UInt8]) throws -> Size {
        let compiled = ChainCompiler.compile(try ChainSyntax.parse(chain, registry: registry).resolve(seed: 1))
        let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(input))
        return try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: .png), limits: DecodeLimits()).size
    }

    func testAPreviewIsMeasuredOnlyWhereItIsAllowedAndOffered() throws {
        let image = Image(width: 203, height: 97) { x, y in Pixel(Float(x) / 202, Float(y) / 96, 0.5, 1) }
        let jpeg = try ImageCodec.encode(image, options: EncodeOptions(format: .jpeg))
        let png = try ImageCodec.encode(image, options: EncodeOptions(format: .png))
        XCTAssertEqual(try outputSize("measured_size", jpeg), Size(width: 26, height: 13), "libjpeg's 1/8: ceil(203/8)×ceil(97/8)")
        XCTAssertEqual(try outputSize("sepia | measured_size", jpeg), Size(width: 26, height: 13), "point filters before it")
        XCTAssertEqual(try outputSize("crop width=150 | measured_size", jpeg), Size(width: 150, height: 97),
                       "a region filter before it: measured on the full decode")
        XCTAssertEqual(try outputSize("measured_size", png), Size(width: 203, height: 97), "no preview for a PNG")
    }
}
