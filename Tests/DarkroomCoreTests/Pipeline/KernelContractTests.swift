import DarkroomDrawing
import XCTest
@testable import DarkroomCore

/// The contract every region filter's kernels keep (see ``PixelKernel``), checked for every
/// shipped filter (the drawing ones included) with random parameters, random sizes and random rectangles, so a new
/// filter is covered the day it is registered.
final class KernelContractTests: XCTestCase {
    /// Samples of filters that only the conformance suite registers (`mix_source`), beside the
    /// examples every descriptor declares (``FilterDescriptor/examples``).
    static let testOnly: [String: [String]] = [
        "group": ["source=image opacity=0.6 chain=[invert | mix_source amount=0.3 | gaussian_blur radius=1]"],
    ]

    /// Parameters held small in the all-random sample: a shadow blurred by sigma 100 grows a
    /// 40-pixel test image to 780², which the debug build takes minutes over.
    static let fixed: [String: String] = ["drop_shadow": "blur=4", "group": "chain=[sepia]"]

    /// Chain texts for `descriptor`: each of its examples, and one with every slider drawn.
    static func samples(for descriptor: FilterDescriptor) -> [String] {
        let held = fixed[descriptor.name] ?? ""
        let randomised = descriptor.parameters.filter { $0.randomRange != nil && $0.kind != .color && !held.contains("\($0.name)=") }
            .map { "\($0.name)=random" }.joined(separator: " ") + " " + held
        return (descriptor.examples + (testOnly[descriptor.name] ?? [])).map { "\(descriptor.name) \($0)" }
            + ["\(descriptor.name) \(randomised)"]
    }

    /// Region filters built from every sample that builds (a sample may be refused, e.g. a
    /// random draw of 0 where 0 is not allowed; every filter must still have some).
    func regionFilters(seed: UInt64) throws -> [(String, any RegionFilter)] {
        var out = [(String, any RegionFilter)]()
        for type in FilterRegistry.shipped.filters where !(type is any PointFilter.Type) && !(type is any AnalysisFilter.Type) {
            var built = 0
            for text in Self.samples(for: type.descriptor) {
                guard let resolved = try? ChainSyntax.parse(text, registry: .shipped, assets: TestAssets()).resolve(seed: seed), resolved.count == 1,
                      let filter = resolved[0].filter as? any RegionFilter else { continue }
                out.append((text, filter))
                built += 1
            }
            XCTAssertGreaterThan(built, 0, "no sample builds \(type.descriptor.name): add one to its descriptor's examples")
        }
        return out
    }

    /// Texture with varying transparency, so premultiplied arithmetic and edges are exercised.
    static func input(_ width: Int, _ height: Int) -> Image {
        var image = TestImage.texture(width: width, height: height)
        for y in 0..<height { for x in 0..<width where (x + 2 * y) % 5 == 0 {
            image[x, y] = image[x, y] * Float(0.25 + 0.15 * Double((x * y) % 4))
        } }
        return image
    }

    // That a rectangle reads only its declared region, and that strips, threads and band heights
    // never change a pixel, is checked for every filter (point filters too) by
    // FilterConformanceTests, through the pipeline as jobs run it.

    /// The `max_pixels` check and every buffer rely on declared sizes: each step's inputs have
    /// the sizes of what feeds them, the plan's output is the filter's output size, and a
    /// render produces exactly that many pixels.
    func testEveryNodeProducesTheSizeItDeclares() throws {
        for (text, filter) in try regionFilters(seed: 11) {
            for size in [Size(width: 1, height: 1), Size(width: 37, height: 5), Size(width: 8, height: 61)] {
                let plan = filter.plan(for: size)
                XCTAssertEqual(plan.outputSize, filter.outputSize(for: size), "\(text) on \(size)")
                for step in plan.steps {
                    for (input, source) in zip(step.kernel.inputs, step.sources) {
                        switch source {
                        case .input: XCTAssertEqual(input.size, size, text)
                        case .step(let i): XCTAssertEqual(input.size, plan.steps[i].kernel.outputSize, text)
                        case .chainSource: break  // no shipped filter reads it (ChainSourceTests)
                        }
                    }
                }
                let image = try filter.apply(to: Self.input(size.width, size.height), executor: smallTiles)
                XCTAssertEqual(image.size, filter.outputSize(for: size), "\(text) on \(size)")
                let pipeline = Pipeline(chain: ChainCompiler.compile([ResolvedFilter(name: text, parameters: .init(), filter: filter)]),
                                        source: Pipeline.traits(of: Self.input(size.width, size.height)))
                XCTAssertEqual(pipeline.outputSize, image.size, text)
            }
        }
    }
}
