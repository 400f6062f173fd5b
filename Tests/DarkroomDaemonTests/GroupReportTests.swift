import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// A group's sub-chain in the report: its steps' resolved values (random ones named by their
/// path, `chain[0].draw.shapes[0].fill`), the files they read, and a parameters object that
/// pastes back into a config as the same chain.
final class GroupReportTests: XCTestCase {
    private func chain(_ steps: String, in folder: TemporaryFolder, store: AssetStore) throws -> ChainSpec {
        let config = try ConfigLoader.parse(text: """
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                    chain:
                      - group:
            \(steps.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """, fileName: "config.yaml", baseDirectory: folder.path, registry: .shipped, assets: store)
        return config.watches[0].outputs[0].chain
    }

    func testTheNestedChainIsReportedWithItsRandomsAndAssetsAndPastesBack() throws {
        let folder = TemporaryFolder()
        let logo = try ImageCodec.encode(Image(width: 6, height: 4) { _, _ in Pixel(1, 0.5, 0, 1) }, options: EncodeOptions(format: .png))
        folder.write("logo.png", logo)
        let store = AssetStore(hash: { SHA256.hex($0) })
        let spec = try chain("""
                        opacity: 0.8
                        shadow: { offset: [3, 3], blur: 2, color: random }
                        chain:
                          - draw: { shapes: [{ shape: rect, width: 50%, height: 40%, fill: random }] }
                          - overlay_image: { image: logo.png, gravity: center }
                          - gaussian_blur: { radius: random }
            """, in: folder, store: store)
        XCTAssertTrue(spec.usesRandom)
        let resolved = try spec.resolve(seed: 1234)
        let step = JobReport.ChainStep(resolved[0])
        XCTAssertEqual(step.random, ["chain[0].draw.shapes[0].fill", "chain[2].gaussian_blur.radius", "shadow.color"])
        // The logo inside the group is resolved against the config's folder and hashed.
        XCTAssertEqual(step.assets, [JobReport.Asset(path: folder.file("logo.png"), sha256: SHA256.hex(logo))])
        guard case .array(let steps)? = step.parameters["chain"], steps.count == 3,
              case .object(let blur) = steps[2], case .object(let blurParameters)? = blur["gaussian_blur"],
              case .number(let radius)? = blurParameters["radius"] else {
            return XCTFail("chain not reported as [{name: {parameters}}]: \(String(describing: step.parameters["chain"]))")
        }
        XCTAssertTrue((0...100).contains(radius))

        // The report's parameters, pasted back as the group's (JSON is YAML), read as the
        // same values: the output is reproduced without the seed.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(step.parameters), as: UTF8.self)
        let again = try chain("                " + json, in: folder, store: store)
        XCTAssertFalse(again.usesRandom)
        let reread = JobReport.ChainStep(try again.resolve(seed: 1)[0])
        XCTAssertEqual(String(decoding: try encoder.encode(reread.parameters), as: UTF8.self), json)
        XCTAssertEqual(reread.assets, step.assets)

        // The same seed draws the same values; another seed others.
        XCTAssertEqual(JobReport.ChainStep(try spec.resolve(seed: 1234)[0]), step)
        XCTAssertNotEqual(JobReport.ChainStep(try spec.resolve(seed: 4321)[0]).parameters, step.parameters)
    }
}
