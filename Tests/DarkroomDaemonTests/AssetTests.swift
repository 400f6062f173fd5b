import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomDrawing
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

/// Files that filters name (overlay_image's image), from the config to the report, through the
/// codecs' asset store.
final class AssetTests: XCTestCase {
    private func config(_ folder: TemporaryFolder, image: String, store: AssetStore,
                        limits: String = "") throws(ConfigError) -> DaemonConfig {
        try ConfigLoader.parse(text: limits + """
            watches:
              - path: ./in
                outputs:
                  - path: ./out/{stem}.png
                    chain:
                      - overlay_image: { image: \(image), at: [2, 3], opacity: 0.5 }
            """, fileName: "config.yaml", baseDirectory: folder.path, registry: .shipped, assets: store)
    }

    private func stamp(_ width: Int, _ height: Int, red: Float) throws -> [UInt8] {
        try ImageCodec.encode(Image(width: width, height: height) { _, _ in Pixel(red, 0.2, 0.1, 1) }, options: EncodeOptions(format: .png))
    }

    func testAMissingOrUnusableImageIsALineColumnErrorWhenTheConfigLoads() throws {
        let folder = TemporaryFolder()
        folder.write("notes.png", Array("not a picture".utf8))
        let store = AssetStore(hash: { SHA256.hex($0) })
        for (image, message) in [("./missing.png", "\(folder.path)/missing.png: no such file"),
                                 ("notes.png", "\(folder.path)/notes.png: not an image (\(ImageFormat.readableList))")] {
            XCTAssertThrowsError(try config(folder, image: image, store: store)) { error in
                let diagnostics = (error as? ConfigError)?.diagnostics ?? []
                XCTAssertEqual(diagnostics.count, 1, "\(diagnostics)")
                XCTAssertEqual(diagnostics.first.map { [$0.line, $0.column] }, [6, 37])
                XCTAssertEqual(diagnostics.first?.message,
                               "watches[0].outputs[0].chain[0] overlay_image.image: \(message)")
            }
        }
    }

    /// A file a chain names is held to the config's `limits:`, as an input is; the store's
    /// copy, loaded by a config with larger limits, is refused by one with smaller limits.
    func testTheConfigsLimitsApplyToItsFiles() throws {
        let folder = TemporaryFolder()
        folder.write("logo.png", try stamp(20, 10, red: 1))
        let store = AssetStore(hash: { SHA256.hex($0) })
        XCTAssertNoThrow(try config(folder, image: "logo.png", store: store), "the defaults allow 200 pixels")
        for (limits, message) in [("limits: { max_pixels: 199 }\n", "too large (20×10 pixels, more than limits.max_pixels 199)"),
                                  ("limits: { max_file_bytes: 10 }\n", "more than limits.max_file_bytes 10)")] {
            XCTAssertThrowsError(try config(folder, image: "logo.png", store: store, limits: limits)) { error in
                let diagnostics = (error as? ConfigError)?.diagnostics ?? []
                XCTAssertEqual(diagnostics.map(\.line), [7], "\(diagnostics)")
                XCTAssertTrue(diagnostics.first?.message.contains(message) ?? false, "\(diagnostics)")
            }
        }
        XCTAssertNoThrow(try config(folder, image: "logo.png", store: store, limits: "limits: { max_pixels: 200 }\n"))
    }

    /// The report names the file and the SHA-256 of the bytes used; a file changed on disk is
    /// read again by the next job (size or mtime), and SIGHUP's reload reads every file again.
    func testAFileChangedOnDiskIsReadAgainAndReported() throws {
        let folder = TemporaryFolder()
        let first = try stamp(4, 4, red: 1)
        folder.write("logo.png", first)
        let input = folder.write("in/card.png", try encodedCard(width: 20, height: 16, format: .png))
        let store = AssetStore(hash: { SHA256.hex($0) })
        let outputs = try config(folder, image: "logo.png", store: store).watches[0].outputs
        let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 1))

        let before = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(before.status, .ok, before.error?.description ?? "")
        XCTAssertEqual(before.outputs.first?.chain.first?.assets,
                       [JobReport.Asset(path: folder.file("logo.png"), sha256: SHA256.hex(first))])
        let json = try jsonObject(before)
        let step = try XCTUnwrap(((json["outputs"] as? [[String: Any]])?.first?["chain"] as? [[String: Any]])?.first)
        XCTAssertEqual((step["assets"] as? [[String: String]])?.first?["sha256"], SHA256.hex(first))
        let red = try ImageCodec.decode(try FileIO.read(folder.file("out/card.png"))).image[3, 4]

        let second = try stamp(5, 4, red: 0)
        folder.write("logo.png", second)
        let after = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(after.outputs.first?.chain.first?.assets?.first?.sha256, SHA256.hex(second))
        let blue = try ImageCodec.decode(try FileIO.read(folder.file("out/card.png"))).image[3, 4]
        XCTAssertGreaterThan(red[0] - blue[0], 0.4, "the new file's pixels are drawn")

        let held = try store.image(at: folder.file("logo.png"))
        XCTAssertTrue(held === (try store.image(at: folder.file("logo.png"))), "unchanged: the decoded copy is kept")
        store.reload()
        XCTAssertFalse(held === (try store.image(at: folder.file("logo.png"))), "reload (SIGHUP) reads it again")
    }

    /// Two outputs and two jobs use one decoded copy, and the memory budget sets its bytes aside
    /// once, whatever the number of jobs.
    func testJobsShareOneDecodedCopyCountedOnceInTheBudget() throws {
        let folder = TemporaryFolder()
        folder.write("logo.png", try stamp(40, 30, red: 1))
        let store = AssetStore(hash: { SHA256.hex($0) })
        var outputs = try config(folder, image: "logo.png", store: store).watches[0].outputs
        outputs.append(outputs[0])
        outputs[1].pathTemplate = folder.file("out/{stem}-2.png")
        let held = try store.image(at: folder.file("logo.png"))
        let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 1))
        for name in ["a", "b"] {
            let input = folder.write("in/\(name).png", try encodedCard(width: 50, height: 40, format: .png))
            XCTAssertEqual(runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1).status, .ok)
        }
        XCTAssertTrue(held === (try store.image(at: folder.file("logo.png"))))
        XCTAssertEqual(store.byteCount, 40 * 30 * 3, "one opaque 8-bit copy, 3 bytes a pixel")
        let budget = MemoryBudget(total: 1 << 20, resident: { store.byteCount })
        guard case .neverFits = budget.reserve((1 << 20) - store.byteCount + 1, giveUpWhen: { true }) else {
            return XCTFail("the asset's bytes are set aside")
        }
        guard case .granted(let bytes) = budget.reserve((1 << 20) - store.byteCount, giveUpWhen: { true }) else {
            return XCTFail("a job fits beside the asset")
        }
        budget.release(bytes)
    }
}
