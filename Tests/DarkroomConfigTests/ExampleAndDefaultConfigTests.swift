import DarkroomCodecs
@testable import DarkroomCore
import DarkroomDrawing
import XCTest
@testable import DarkroomConfig

/// The shipped example must load as the daemon reads it (the shipped registry, files through
/// the asset store: its watermark draws the logo.svg beside it); the built-in default against
/// the standard registry. Both need the geometry and composition filters.
final class ExampleAndDefaultConfigTests: XCTestCase {
    private var repositoryRoot: String {
        ConfigPath.standardize(#filePath + "/../../..")
    }

    func testExampleConfigLoads() throws {
        let path = repositoryRoot + "/config.example.yaml"
        let config: DaemonConfig
        let assets = AssetStore(hash: { _ in String(repeating: "0", count: 64) })
        do { config = try ConfigLoader.load(path: path, registry: .shipped, assets: assets) } catch {
            return XCTFail("config.example.yaml is rejected:\n\(error)")
        }
        XCTAssertEqual(config.sourcePath, path)
        let watch = try XCTUnwrap(config.watches.first)
        XCTAssertEqual(config.watches.count, 1)
        XCTAssertTrue(watch.path.hasPrefix(repositoryRoot + "/inbox"), watch.path)
        XCTAssertEqual(watch.outputs.map(\.format), [.jpeg, .webp, .png, .jpeg])
        XCTAssertEqual(watch.include, WatchConfig.defaultInclude)
        XCTAssertEqual(watch.outputs[0].quality, 82)
        XCTAssertEqual(watch.outputs[0].encoding, OutputEncoding(quality: 82, chroma: .auto, metadata: .keep, gps: false))
        XCTAssertEqual(watch.outputs[1].quality, 80)
        var webp = OutputEncoding(quality: 80)
        webp.effort = 4  // written in the example (libwebp's default; JPEG XL would read it otherwise)
        XCTAssertEqual(watch.outputs[1].encoding, webp)
        XCTAssertEqual(watch.outputs[2].encoding, OutputEncoding(bitDepth: 8, compression: 6))
        XCTAssertEqual(watch.outputs[0].chain.steps.map(\.name), ["resize"])
        XCTAssertEqual(watch.outputs[1].chain, watch.outputs[0].chain, "the WebP thumbnail is the JPEG's")
        XCTAssertEqual(watch.outputs[2].chain.steps.map(\.name), ["transform", "drop_shadow", "sepia"])
        XCTAssertTrue(watch.outputs[2].chain.usesRandom)
        XCTAssertEqual(watch.outputs[3].chain.steps.map(\.name), ["resize", "overlay_image", "draw_text"], "the watermark")
        for output in watch.outputs {
            XCTAssertTrue(output.pathTemplate.hasPrefix(repositoryRoot + "/outbox/"), output.pathTemplate)
        }
    }

    func testDefaultConfigWatchesInboxAndWritesOutbox() throws {
        // defaultConfig treats a missing resize as a broken build and stops; fail instead.
        guard FilterRegistry.standard.type(named: "resize") != nil else {
            return XCTFail("the standard registry has no resize filter, which the built-in config needs")
        }
        let config = ConfigLoader.defaultConfig(baseDirectory: "/srv/dr/")
        XCTAssertNil(config.sourcePath)
        XCTAssertEqual(config.sourceText, ConfigLoader.defaultText)
        let watch = try XCTUnwrap(config.watches.first)
        XCTAssertEqual(watch.path, "/srv/dr/inbox")
        XCTAssertEqual(watch.doneDirectory, "/srv/dr/done")
        XCTAssertEqual(watch.failedDirectory, "/srv/dr/failed")
        XCTAssertEqual(watch.reportsDirectory, "/srv/dr/reports")
        let output = try XCTUnwrap(watch.outputs.first)
        XCTAssertEqual(output.pathTemplate, "/srv/dr/outbox/{stem}.jpg")
        XCTAssertEqual(output.format, .jpeg)
        XCTAssertEqual(output.quality, 85)
        let step = try XCTUnwrap(output.chain.steps.first)
        XCTAssertEqual(step.name, "resize")
        XCTAssertTrue(step.arguments.contains { $0.name == "width" && $0.argument == .value(.number(1200)) })
        XCTAssertTrue(step.arguments.contains { $0.name == "no_upscale" && $0.argument == .value(.bool(true)) },
                      "out of the box, small pictures are not blown up")
    }
}
