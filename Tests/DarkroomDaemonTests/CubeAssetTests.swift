import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// A `.cube` LUT named by `color_cube file:`, from the config to the output and the report: read
/// through the codecs' asset store, validated when the config loads (errors at the config's
/// line:column, with the `.cube` line), its SHA-256 in the report.
final class CubeAssetTests: XCTestCase {
    private func config(_ folder: TemporaryFolder, file: String, store: AssetStore) throws(ConfigError) -> DaemonConfig {
        try ConfigLoader.parse(text: """
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                    chain:
                      - color_cube: { file: \(file), interpolation: tetrahedral }
            """, fileName: "config.yaml", baseDirectory: folder.path, assets: store)
    }

    /// A 3-D table that inverts (1 − c on every channel), as Adobe's specification lays it out.
    private let invert: String = {
        var lines = ["TITLE \"invert\"", "LUT_3D_SIZE 2"]
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { lines.append("\(1 - r) \(1 - g) \(1 - b)") } } }
        return lines.joined(separator: "\n") + "\n"
    }()

    func testTheTableIsAppliedAndItsSHA256Reported() throws {
        let folder = TemporaryFolder()
        let bytes = Array(invert.utf8)
        folder.write("looks/invert.cube", bytes)
        let card = try encodedCard(width: 20, height: 16, format: .png)
        let input = folder.write("in/card.png", card)
        let store = AssetStore(hash: { SHA256.hex($0) })
        let outputs = try config(folder, file: "looks/invert.cube", store: store).watches[0].outputs
        let report = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 1))
            .run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        let json = try jsonObject(report)
        let step = try XCTUnwrap(((json["outputs"] as? [[String: Any]])?.first?["chain"] as? [[String: Any]])?.first)
        XCTAssertEqual(step["filter"] as? String, "color_cube")
        XCTAssertEqual(step["assets"] as? [[String: String]],
                       [["path": folder.file("looks/invert.cube"), "sha256": SHA256.hex(bytes)]])
        let before = try ImageCodec.decode(card).image, after = try ImageCodec.decode(try FileIO.read(folder.file("out/card.png"))).image
        for (x, y) in [(0, 0), (7, 3), (19, 15)] {
            for c in 0..<3 { XCTAssertEqual(after[x, y][c], 1 - before[x, y][c], accuracy: 0.5 / 255, "(\(x), \(y))") }
        }
    }

    func testAMissingOrMalformedTableIsALineColumnErrorWhenTheConfigLoads() throws {
        let folder = TemporaryFolder()
        folder.write("short.cube", Array("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n".utf8))
        folder.write("wide.cube", Array(invert.replacingOccurrences(of: "0 1 1", with: "0 1 7").utf8))
        let store = AssetStore(hash: { SHA256.hex($0) })
        let cases = [
            ("missing.cube", " color_cube.file: \(folder.path)/missing.cube: no such file"),
            ("short.cube", ": color_cube: file: \(folder.path)/short.cube: line 4: the file ends after 2 table lines (from line 2); "
                + "LUT_3D_SIZE 2 (line 1) needs 8"),
            ("wide.cube", ": color_cube: file: \(folder.path)/wide.cube: line 4: 0 1 7 is outside the domain 0 0 0 … 1 1 1 "
                + "(widen DOMAIN_MIN/DOMAIN_MAX if it is meant)"),
        ]
        for (file, message) in cases {
            XCTAssertThrowsError(try config(folder, file: file, store: store), file) { error in
                let diagnostics = (error as? ConfigError)?.diagnostics ?? []
                XCTAssertEqual(diagnostics.count, 1, "\(diagnostics)")
                XCTAssertEqual(diagnostics.first?.line, 6)
                XCTAssertEqual(diagnostics.first?.message, "watches[0].outputs[0].chain[0]\(message)")
            }
        }
    }
}
