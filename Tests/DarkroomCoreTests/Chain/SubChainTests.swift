import XCTest
@testable import DarkroomCore

/// A filter that runs a sub-chain on the image and gives its result: Core's sub-chain kind and
/// plan with no drawing module, registered only here, the way a module registers `group`.
struct SubChainTestFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "sub", displayName: "Sub-chain", categories: ["test"], description: "Runs its chain.",
        parameters: [ParameterDescriptor("chain", .chain, "The steps.", required: true)])

    let subChain: SubChainPlan

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let steps = Self.described(parameters).chain("chain")
        for (i, step) in steps.enumerated() {
            if let problem = SubChainPlan.layerProblem(step.filter) { throw ParameterError(problem, at: [.key("chain"), .index(i)]) }
        }
        subChain = SubChainPlan(steps)
    }

    func outputSize(for input: Size) -> Size { input }

    func plan(for input: Size) -> KernelPlan {
        let sub = subChain.steps(on: .input, size: input, chainSource: nil, first: 0)
        return KernelPlan(sub.steps + [.init(CopyKernel(inputSize: input, outputSize: input, origin: (0, 0)), sources: [sub.output])])
    }
}

final class SubChainTests: XCTestCase {
    let registry = FilterRegistry.standard.adding([SubChainTestFilter.self, RecordsTestFilter.self])

    private func run(_ text: String, on image: Image) throws -> Image {
        let resolved = try ChainSyntax.parse(text, registry: registry).resolve(seed: 3)
        return try ChainCompiler.compile(resolved).run(image, executor: smallTiles).image
    }

    private func error(_ text: String) -> String {
        do { _ = try ChainSyntax.parse(text, registry: registry) } catch { return error.description }
        return "accepted"
    }

    /// Run as a sub-chain (point filters as passes of their own, region filters' steps
    /// renumbered, a random-access rotation kept whole), a chain gives what it gives on its own.
    func testASubChainRendersAsTheSameChainOnItsOwn() throws {
        let image = KernelContractTests.input(53, 41)
        let steps = "gaussian_blur radius=2 | sepia intensity=0.7 | invert | transform rotate=10deg | unsharp_mask radius=1.5 | gamma power=1.3"
        let alone = try run(steps, on: image)
        let nested = try run("sub chain=[\(steps)]", on: image)
        let worst = zip(alone.pixels, nested.pixels).map { (a: Pixel, b: Pixel) -> Float in (0..<4).map { abs(a[$0] - b[$0]) }.max()! }.max()!
        XCTAssertLessThan(worst, 1e-5)
    }

    func testNestedStepsAreCheckedAgainstTheChainsRegistryWithTheirPlace() {
        XCTAssertEqual(error("sub chain=[invert | sepai]"), "sub.chain[1]: unknown filter \"sepai\" (did you mean \"sepia\"?)")
        XCTAssertEqual(error("sub chain=[sepia intensity=2]"), "sub.chain[0].sepia.intensity: expected a number from 0 to 1, got \"2\"")
        XCTAssertEqual(error("sub chain=[records stops=[{at=3}]]"),
                       "sub.chain[0].records.stops[0].at: expected a number from 0 to 1, got \"3\"")
        XCTAssertEqual(error("sub chain=[]"), "sub.chain: expected a list of filters (- name or - name: { parameter: value }), "
                       + "as a chain is written, got an empty list")
        XCTAssertTrue(error("sub chain=[crop width=50%]").contains("crop changes the image's size"))
        XCTAssertTrue(error("sub chain=sepia").contains("expected a sub-chain in brackets"))
    }

    func testSubChainsNestFourDeep() throws {
        func nested(_ depth: Int) -> String { depth == 0 ? "invert" : "sub chain=[\(nested(depth - 1))]" }
        XCTAssertNoThrow(try ChainSyntax.parse(nested(4), registry: registry))
        XCTAssertTrue(error(nested(5)).contains("sub-chains nest more than 4 deep"), error(nested(5)))
        let image = KernelContractTests.input(9, 7)
        XCTAssertEqual(try run(nested(4), on: image), try run("invert", on: image))
    }

    /// `random` inside is drawn from the job's seed, named by its path, and seeds the chain's
    /// later steps after it, in the order written.
    func testRandomInsideASubChainIsDrawnWithTheSeedAndNamed() throws {
        let spec = try ChainSyntax.parse("sub chain=[sepia intensity=random | gamma power=random] | exposure ev=random", registry: registry)
        XCTAssertTrue(spec.usesRandom)
        let a = try spec.resolve(seed: 11), b = try spec.resolve(seed: 11), c = try spec.resolve(seed: 12)
        XCTAssertEqual(a.map(\.parameters), b.map(\.parameters))
        XCTAssertNotEqual(a[0].parameters, c[0].parameters)
        XCTAssertEqual(a[0].parameters.randomNames, ["chain[0].sepia.intensity", "chain[1].gamma.power"])
        // Written back (`[sepia intensity=0.63… | gamma power=…]`), the values read as they were.
        let text = "sub chain=\(a[0].parameters["chain"]!)"
        XCTAssertEqual(try ChainSyntax.parse(text, registry: registry).resolve(seed: 1)[0].parameters["chain"], a[0].parameters["chain"]!
                       .withoutRandomNames, text)
    }
}

private extension ParameterValue {
    /// The same steps, as values given rather than drawn.
    var withoutRandomNames: ParameterValue {
        guard case .chain(let steps) = self else { return self }
        return .chain(steps.map { ResolvedFilter(name: $0.name, parameters: ResolvedParameters(entries: $0.parameters.entries), filter: $0.filter) })
    }
}
