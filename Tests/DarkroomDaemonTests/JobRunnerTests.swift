import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

final class JobRunnerTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))

    func testWritesEveryOutputAndReportsInputOutputsAndChain() throws {
        let folder = TemporaryFolder()
        let bytes = try encodedCard(width: 40, height: 30, format: .png)
        let input = folder.write("in/card.png", bytes)
        let outputs = [
            OutputConfig(pathTemplate: folder.file("out/{watch}/{stem}.jpg"), format: .jpeg, quality: 85,
                         chain: try chain([("sepia", [("intensity", .scalar("0.5"))])])),
            OutputConfig(pathTemplate: folder.file("out/{stem}-{ext}.png"), format: .png,
                         chain: try chain([("hue", [("angle", .scalar("90deg"))]), ("invert", [])])),
        ]
        let report = runner.run(inputPath: input, watchName: "photos", outputs: outputs, seed: 7)

        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertNil(report.error)
        XCTAssertEqual(report.input.path, input)
        XCTAssertEqual(report.input.bytes, bytes.count)
        XCTAssertEqual(report.input.sha256, SHA256.hex(bytes))
        XCTAssertEqual(report.input.format, "png")
        XCTAssertEqual(report.input.width, 40)
        XCTAssertEqual(report.input.height, 30)

        XCTAssertEqual(report.outputs.map(\.path), [folder.file("out/photos/card.jpg"), folder.file("out/card-png.png")])
        for output in report.outputs {
            let written = try FileIO.read(output.path)
            XCTAssertEqual(written.count, output.bytes)
            let info = try ImageCodec.readInfo(written)
            XCTAssertEqual([info.width, info.height], [40, 30])
            XCTAssertEqual(info.format.rawValue, output.format)
            XCTAssertEqual(output.seed, 7)
        }
        XCTAssertEqual(report.outputs[0].chain.map(\.filter), ["sepia"])
        XCTAssertEqual(report.outputs[0].chain[0].parameters["intensity"], .number(0.5))
        XCTAssertEqual(report.outputs[1].chain[0].parameters["angle"], .string("90deg"))
        XCTAssertEqual(report.outputs[1].nodes.map(\.filters), [["decode", "hue", "invert"]],
                       "fused colour filters run inside the decoder's node, not as a pass of their own")
        XCTAssertEqual(folder.listing("out"), ["card-png.png", "photos/card.jpg"], "no temporary files left")
        XCTAssertEqual(FileStatus.of(input)?.size, bytes.count, "the runner leaves the input where it is")
    }

    func testEveryReportedValuePastedIntoAChainGivesTheSameOutput() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.png", try encodedCard(width: 40, height: 30, format: .png))
        let random = "hue angle=random | transform rotate=random canvas=grow | sepia intensity=random"
        let first = runner.run(inputPath: input, watchName: "w", outputs: [OutputConfig(
            pathTemplate: folder.file("out/a.png"), format: .png, chain: try ChainSyntax.parse(random))], seed: nil)
        XCTAssertEqual(first.status, .ok)
        // Rebuild the chain from the report alone, as a user would, without the seed.
        let steps = first.outputs[0].chain.map { step in
            ([step.filter] + step.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.chainText)" })
                .joined(separator: " ")
        }
        let again = runner.run(inputPath: input, watchName: "w", outputs: [OutputConfig(
            pathTemplate: folder.file("out/b.png"), format: .png,
            chain: try ChainSyntax.parse(steps.joined(separator: " | ")))], seed: 0)
        XCTAssertEqual(again.status, .ok, again.error?.description ?? "")
        XCTAssertEqual(try FileIO.read(folder.file("out/a.png")), try FileIO.read(folder.file("out/b.png")), steps.joined(separator: " | "))
    }

    func testRandomParametersAreDrawnFromTheSeedAndRecorded() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.jpg", try encodedCard(width: 16, height: 16, format: .jpeg))
        let outputs = [OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png,
                                    chain: try chain([("sepia", [("intensity", .scalar("random"))])]))]
        let a = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 123)
        let b = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 123)
        XCTAssertEqual(a.status, .ok)
        XCTAssertEqual(a.outputs[0].chain[0].random, ["intensity"])
        XCTAssertEqual(a.outputs[0].chain, b.outputs[0].chain, "same seed, same draw")
        guard case .number(let drawn)? = a.outputs[0].chain[0].parameters["intensity"] else { return XCTFail("no intensity") }
        XCTAssertTrue((0...1).contains(drawn))

        let fresh = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: nil)
        XCTAssertLessThan(fresh.outputs[0].seed, 1 << 53, "a fresh seed prints exactly in jq")
    }

    func testBadInputsFailWithTheCodecsCode() throws {
        let folder = TemporaryFolder()
        let png = try encodedCard(width: 64, height: 64, format: .png)
        let jpeg = try encodedCard(width: 64, height: 64, format: .jpeg)
        var corrupt = jpeg
        for i in 200..<min(corrupt.count, 600) { corrupt[i] = 0xFF }  // scramble headers and data after SOI
        let cases: [(String, [UInt8], Set<String>)] = [
            ("notes.jpg", Array("just some text, not a picture\n".utf8), ["not_an_image"]),
            ("cut.png", Array(png.prefix(png.count / 2)), ["truncated", "corrupt"]),
            ("cut.jpg", Array(jpeg.prefix(jpeg.count / 2)), ["truncated", "corrupt"]),
            ("bad.jpg", corrupt, ["corrupt", "truncated"]),
            ("empty.png", [], ["not_an_image", "truncated"]),
        ]
        let outputs = [OutputConfig(pathTemplate: folder.file("out/{name}.png"), format: .png, chain: ChainSpec([]))]
        for (name, bytes, codes) in cases {
            let input = folder.write("in/" + name, bytes)
            let report = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
            XCTAssertEqual(report.status, .failed, name)
            XCTAssertTrue(codes.contains(report.error?.code ?? ""), "\(name): \(report.error?.description ?? "no error")")
            XCTAssertFalse(report.error?.message.isEmpty ?? true, name)
            XCTAssertEqual(report.input.bytes, bytes.count, name)
            XCTAssertEqual(report.input.sha256, SHA256.hex(bytes), name)
            XCTAssertEqual(report.outputs, [], name)
        }
        XCTAssertEqual(folder.listing("out"), [], "a failed decode writes nothing")
    }

    func testLimitsRefuseLargeInputsBeforeDecoding() throws {
        let folder = TemporaryFolder()
        let bytes = try encodedCard(width: 100, height: 100, format: .png)
        let input = folder.write("in/big.png", bytes)
        let outputs = [OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([]))]

        let pixels = JobRunner(limits: Limits(maxPixels: 5000)).run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(pixels.status, .failed)
        XCTAssertEqual(pixels.error?.code, "too_large")

        let size = JobRunner(limits: Limits(maxFileBytes: bytes.count - 1)).run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(size.status, .failed)
        XCTAssertEqual(size.error?.code, "too_large")
        XCTAssertEqual(size.input.bytes, bytes.count)
        XCTAssertNil(size.input.sha256, "not read at all")
    }

    func testAChainThatWouldMakeAnImageOverThePixelLimitFailsBeforeRunning() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/small.png", try encodedCard(width: 100, height: 100, format: .png))
        let outputs = [OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png,
                                    chain: try ChainSyntax.parse("resize scale=100 | sepia"))]
        let report = JobRunner(limits: Limits(maxPixels: 50_000_000)).run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "too_large")
        XCTAssertTrue(report.error?.message.contains("resize would make a 10000×10000 image") ?? false, report.error?.message ?? "")
        XCTAssertEqual(folder.listing("out"), [], "nothing written")
    }

    func testAJPEGThumbnailIsDecodedSmallerWithTheSameResult() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/big.jpg", try encodedCard(width: 1600, height: 1200, format: .jpeg))
        func thumbnail(_ chainText: String, to name: String) throws -> JobReport {
            let output = OutputConfig(pathTemplate: folder.file("out/\(name).png"), format: .png,
                                      chain: try ChainSyntax.parse(chainText))
            return runner.run(inputPath: input, watchName: "w", outputs: [output], seed: 1)
        }
        // 1600 → 100 is a 16× reduction: the decoder may take 1/8 and leave 2× to lanczos3.
        let shrunk = try thumbnail("resize width=100", to: "shrunk")
        // A colour step first means the decoder must deliver every pixel.
        let full = try thumbnail("gamma power=1.0001 | resize width=100", to: "full")
        XCTAssertEqual(shrunk.status, .ok, shrunk.error?.description ?? "")
        XCTAssertEqual(shrunk.input.shrinkOnLoad, 8)
        XCTAssertEqual(full.input.shrinkOnLoad, 1)
        XCTAssertEqual([shrunk.input.width, shrunk.input.height], [1600, 1200], "the report gives the file's own size")
        let a = try ImageCodec.decode(try FileIO.read(folder.file("out/shrunk.png"))).image
        let b = try ImageCodec.decode(try FileIO.read(folder.file("out/full.png"))).image
        XCTAssertEqual([a.width, a.height], [100, 75])
        XCTAssertEqual(a.size, b.size)
        // Same picture within a fraction of a level: only the prefilter differs (DCT block average vs lanczos3).
        let differences = zip(a.pixels, b.pixels).map { p, q in (0..<3).map { Double(abs(p[$0] - q[$0])) }.reduce(0, +) }
        let error = differences.reduce(0, +) / Double(3 * a.pixels.count)
        XCTAssertLessThan(error, 1.0 / 255)
    }

    func testAFailedWriteIsReportedWithItsCauseAndLeavesNoTemporaryFile() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.png", try encodedCard(width: 8, height: 8, format: .png))
        folder.write("out/blocked", [0])
        let outputs = [
            OutputConfig(pathTemplate: folder.file("out/ok/{stem}.png"), format: .png, chain: ChainSpec([])),
            OutputConfig(pathTemplate: folder.file("out/blocked/{stem}.png"), format: .png, chain: ChainSpec([])),
        ]
        let report = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "write_failed")
        XCTAssertTrue(report.error?.message.contains("Not a directory") == true, report.error?.message ?? "")
        XCTAssertEqual(report.outputs.map(\.path), [folder.file("out/ok/card.png")], "what was written is listed")
        XCTAssertEqual(folder.listing("out"), ["blocked", "ok/card.png"])
    }

    func testAMissingInputFailsWithIO() {
        let report = runner.run(inputPath: "/nonexistent/a.jpg", watchName: "w", outputs: [], seed: 1)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "io")
        XCTAssertTrue(report.error?.message.contains("No such file") == true)
    }

    func testNoOutputsMeansSkipped() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.png", try encodedCard(width: 8, height: 8, format: .png))
        XCTAssertEqual(runner.run(inputPath: input, watchName: "w", outputs: [], seed: 1).status, .skipped)
    }
}

extension ReportValue {
    /// The value as `--chain` text.
    var chainText: String {
        switch self {
        case .number(let v): return "\(v)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return s
        case .array(let a): return "[" + a.map(\.chainText).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.keys.sorted().map { "\($0)=\(o[$0]!.chainText)" }.joined(separator: ",") + "}"
        }
    }
}
