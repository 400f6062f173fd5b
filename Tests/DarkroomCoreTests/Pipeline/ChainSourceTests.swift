import XCTest
@testable import DarkroomCore

/// Mixes its input with the chain's source (the decoded image, upright, before any filter):
/// `(1 - amount) × input + amount × source`, the source read with a clamped edge where the
/// sizes differ. A filter of the kind that blends with the original.
struct MixWithSourceTestFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "mix_source", displayName: "Mix with the source (test)", categories: ["test"], description: "",
        parameters: [ParameterDescriptor("amount", .scalar, "", default: .number(0.5), min: 0, max: 1, slider: 0...1,
                                         identity: .number(0))])
    let amount: Float
    init(parameters: ResolvedParameters) { amount = Float(Self.described(parameters).number("amount")) }

    var readsChainSource: Bool { true }
    func outputSize(for input: Size) -> Size { input }
    func plan(for input: Size) -> KernelPlan { plan(for: input, chainSource: input) }
    func plan(for input: Size, chainSource: Size) -> KernelPlan {
        KernelPlan([KernelPlan.Step(MixKernel(size: input, source: chainSource, amount: amount), sources: [.input, .chainSource])])
    }

    struct MixKernel: PixelKernel {
        let size: Size, source: Size, amount: Float
        var outputSize: Size { size }
        var inputs: [KernelInput] { [KernelInput(size: size, edge: .clamp), KernelInput(size: source, edge: .clamp)] }
        func inputRegions(for output: Rect) -> [Rect] { [output, output] }
        func render(_ inputs: [RegionView], into target: RegionTarget) {
            let r = target.rect
            for y in r.y..<r.maxY {
                let out = target.pointer(r.x, y), a = inputs[0].pointer(r.x, y), b = inputs[1].pointer(r.x, y)
                for x in 0..<r.width { out[x] = a[x] * (1 - amount) + b[x] * amount }
            }
        }
    }
}

/// A kernel may read the chain's source besides its own input: what it reads is the decoded
/// image before any filter, whatever the chain did before it (colour fused into the decoder,
/// a leading crop, a shrink-on-load).
final class ChainSourceTests: XCTestCase {
    let registry = FilterRegistry.standard.adding([MixWithSourceTestFilter.self])

    private func render(_ chain: String, _ image: Image, executor: StripExecutor = StripExecutor(bandHeight: 4, concurrency: 2))
        throws -> Image {
        let compiled = ChainCompiler.compile(try ChainSyntax.parse(chain, registry: registry).resolve(seed: 1))
        return try compiled.run(image, executor: executor).image
    }

    private let image = Image(width: 23, height: 17) { x, y in Pixel(Float(x) / 22, Float(y) / 16, 0.3, 1) }

    func testTheSourceIsReadAsDecodedNotAsTheColourFiltersBeforeLeftIt() throws {
        // invert then mix half with the source: (1 - v) / 2 + v / 2 = 1/2 in every colour channel.
        let out = try render("invert | mix_source amount=0.5", image)
        XCTAssertEqual(out.size, image.size)
        for p in out.pixels { for c in 0..<3 { XCTAssertEqual(p[c], 0.5, accuracy: 1e-6) } }
    }

    func testALeadingCropDoesNotCropTheSource() throws {
        // The crop's output pixel (x, y) is the image's (x + 5, y + 3); the source's (x, y) is the image's own.
        let out = try render("crop x=5 y=3 width=10 height=8 | mix_source amount=0.5", image)
        XCTAssertEqual(out.size, Size(width: 10, height: 8))
        for y in 0..<8 { for x in 0..<10 {
            let expected = (image[x + 5, y + 3] + image[x, y]) * 0.5
            for c in 0..<4 { XCTAssertEqual(out[x, y][c], expected[c], accuracy: 1e-6, "(\(x), \(y))") }
        } }
    }

    func testStripsAndThreadsDoNotChangeAPixel() throws {
        let chain = "sepia | gaussian_blur radius=1.5 | mix_source amount=0.3"
        let reference = try render(chain, image, executor: StripExecutor(bandHeight: 4096, concurrency: 1))
        for executor in [StripExecutor(bandHeight: 1, concurrency: 2), StripExecutor(bandHeight: 5, concurrency: 3)] {
            XCTAssertEqual(try render(chain, image, executor: executor), reference, "band height \(executor.bandHeight)")
        }
    }

    func testAChainThatReadsItsSourceIsNotShrunkOnLoad() throws {
        let shrinking = ChainCompiler.compile(try ChainSyntax.parse("resize width=100", registry: registry).resolve(seed: 1))
        XCTAssertGreaterThan(shrinking.sourceShrinkFactor(for: Size(width: 1000, height: 1000)), 1)
        let reading = ChainCompiler.compile(try ChainSyntax.parse("resize width=100 | mix_source", registry: registry).resolve(seed: 1))
        XCTAssertEqual(reading.sourceShrinkFactor(for: Size(width: 1000, height: 1000)), 1)
    }
}
