import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Glibc
import Logging
import XCTest
@testable import DarkroomDaemon

/// A filter the core does not ship: swaps red and blue. Registered by this test alone.
private struct SwapTestFilter: PointFilter {
    static let descriptor = FilterDescriptor(
        name: "swap_red_blue", displayName: "Swap red and blue (test)", categories: ["test"], description: "Test filter.",
        parameters: [ParameterDescriptor("strength", .scalar, "1 swaps fully.", default: .number(1), min: 0, max: 1,
                                         slider: 0...1, identity: .number(0))])
    var strength: Double
    init(parameters: ResolvedParameters) { strength = Self.described(parameters).number("strength") }
    var pointOperations: [any PointOperation] {
        let s = strength
        return [ColorMatrix.rgb([1 - s, 0, s, 0, 1, 0, s, 0, 1 - s])]
    }
}

/// The registry a config is read with is the one its jobs resolve filters with and its reports
/// describe them with: no `FilterRegistry.standard` lookup on the way.
final class RegistryTravelTests: XCTestCase {
    func testAFilterRegisteredOutsideTheCoreRunsFromConfigToReport() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.png", try encodedCard(width: 30, height: 20, format: .png))
        let registry = FilterRegistry.standard.adding([SwapTestFilter.self])
        let yaml = """
            watches:
              - path: \(folder.file("in"))
                outputs:
                  - path: \(folder.file("out/{stem}.png"))
                    chain:
                      - swap_red_blue: { strength: random }
                      - resize: { width: 15 }
            """
        XCTAssertThrowsError(try ConfigLoader.parse(text: yaml, fileName: "c.yaml", baseDirectory: folder.path),
                             "the standard registry does not know the filter")
        let config = try ConfigLoader.parse(text: yaml, fileName: "c.yaml", baseDirectory: folder.path, registry: registry)
        let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 1))
        let report = runner.run(inputPath: input, watchName: "w", outputs: config.watches[0].outputs, seed: 5)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertEqual(report.outputs.first?.chain.map(\.filter), ["swap_red_blue", "resize"])
        guard case .number(let strength)? = report.outputs.first?.chain.first?.parameters["strength"] else {
            return XCTFail("the drawn strength is not in the report")
        }
        XCTAssertEqual(report.outputs.first?.chain.first?.random, ["strength"])
        // The output is the card with red and blue mixed as reported.
        let out = try ImageCodec.decode(try FileIO.read(folder.file("out/card.png"))).image
        let card = testCard(width: 30, height: 20)
        let expected = try ChainCompiler.compile(try ChainSyntax.parse("swap_red_blue strength=\(strength) | resize width=15",
                                                                   registry: registry).resolve(seed: 0)).run(card).image
        XCTAssertEqual(out.size, expected.size)
        for (a, b) in zip(out.pixels, expected.pixels) { for c in 0..<3 { XCTAssertEqual(a[c], b[c], accuracy: 1.5 / 255) } }
    }
}

/// A program embedding the daemon hands it its registry; SIGHUP reads the config again with
/// that registry, never the shipped one.
final class ReloadRegistryTests: XCTestCase {
    func testAReloadReadsTheConfigWithTheRegistryTheProgramHandedIn() throws {
        let folder = TemporaryFolder()
        let registry = FilterRegistry.standard.adding([SwapTestFilter.self])
        func yaml(_ chain: String) -> String {
            """
            watches:
              - path: \(folder.file("in"))
                outputs:
                  - path: \(folder.file("out/{stem}.png"))
                    chain: [\(chain)]
            """
        }
        let path = folder.write("darkroom.yaml", Array(yaml("{ resize: { width: 15 } }").utf8))
        let first = try ConfigLoader.load(path: path, registry: registry, assets: SharedAssets.store)
        let host = DaemonHost(config: first, configPath: path, registry: registry, logger: Logger(label: "test"))
        _ = folder.write("darkroom.yaml", Array(yaml("{ swap_red_blue: { strength: 0.5 } }, { resize: { width: 15 } }").utf8))

        host.receive(SIGHUP)
        let reloaded = try XCTUnwrap(host.takeRequests().config, "the reloaded config names a filter of the handed-in registry")
        XCTAssertEqual(reloaded.watches.first?.outputs.first?.chain.steps.map(\.name), ["swap_red_blue", "resize"])
        XCTAssertEqual(host.activity.snapshot().reloads["failure"], 0)

        // The same file under a host given the core's registry alone is refused, and the running config kept.
        let coreOnly = DaemonHost(config: first, configPath: path, registry: .standard, logger: Logger(label: "test"))
        coreOnly.receive(SIGHUP)
        XCTAssertNil(coreOnly.takeRequests().config)
        XCTAssertEqual(coreOnly.activity.snapshot().reloads["failure"], 1)
    }
}
