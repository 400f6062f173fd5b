import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// What the report says of orientation and colour: `input.icc`, `orientation_applied`,
/// `color_converted_from`, and a warning (never a failure) for a profile that cannot be used.
final class ColorReportTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))
    /// Built by Tests/DarkroomCodecsTests/Fixtures/make_icc_fixtures.py.
    let adobeRGB = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../DarkroomCodecsTests/Fixtures/adobe_rgb.icc").standardized

    /// A 40×30 JPEG tagged with `icc`, standing on its side (EXIF orientation 6).
    private func portrait(icc: [UInt8]?) throws -> [UInt8] {
        let jpeg = try ImageCodec.encode(testCard(width: 40, height: 30), options: EncodeOptions(format: .jpeg, icc: icc))
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let app1 = Array("Exif\0\0".utf8) + tiff
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, 0, UInt8(app1.count + 2)] + app1 + jpeg[2...]
    }

    func testReportsTheProfileTheOrientationAndWhatWasDone() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/p.jpg", try portrait(icc: [UInt8](try Data(contentsOf: adobeRGB))))
        let outputs = [
            OutputConfig(pathTemplate: folder.file("out/{stem}-a.png"), format: .png, chain: ChainSpec([])),
            OutputConfig(pathTemplate: folder.file("out/{stem}-b.png"), format: .png,
                         color: ColorOptions(autoOrient: false, target: .keep), chain: ChainSpec([])),
        ]
        let report = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertEqual(report.input.icc, "darkroom test Adobe RGB (1998)")
        XCTAssertEqual(report.input.orientation, 6)
        XCTAssertNil(report.input.warning)
        XCTAssertEqual(report.outputs.map(\.orientationApplied), [6, 1])
        XCTAssertEqual(report.outputs.map(\.colorConvertedFrom), ["darkroom test Adobe RGB (1998)", nil])
        XCTAssertEqual(report.outputs.map { [$0.width, $0.height] }, [[30, 40], [40, 30]], "upright, then as stored")

        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        for key in ["\"icc\":", "\"orientation_applied\":6", "\"color_converted_from\":null"] {
            XCTAssertTrue(json.contains(key), "\(key) missing from \(json)")
        }
    }

    func testAnUnusableProfileIsAWarningNotAFailure() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/p.jpg", try portrait(icc: Array("not an ICC profile at all, just text".utf8)))
        let report = runner.run(inputPath: input, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.jpg"), format: .jpeg, chain: ChainSpec([]))], seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertNil(report.input.icc)
        XCTAssertTrue(report.input.warning?.hasPrefix("ICC profile ignored") == true, report.input.warning ?? "no warning")
        XCTAssertNil(report.outputs.first?.colorConvertedFrom)
        XCTAssertEqual(report.outputs.first?.orientationApplied, 6)
    }

    /// Stray bytes before the scan and an unusable profile, through two outputs: the report
    /// names both problems, each once.
    func testEveryProblemIsNamedOnceHoweverManyOutputsMetIt() throws {
        let folder = TemporaryFolder()
        var jpeg = try portrait(icc: Array("not an ICC profile at all, just text".utf8))
        let sos = try XCTUnwrap((2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        jpeg.insert(contentsOf: [0x12, 0x34, 0x56], at: sos)
        let input = folder.write("in/p.jpg", jpeg)
        let report = runner.run(inputPath: input, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.jpg"), format: .jpeg, chain: ChainSpec([])),
            OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([]))], seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        let warnings = report.input.warning?.components(separatedBy: "; ICC") ?? []
        XCTAssertEqual(warnings.count, 2, report.input.warning ?? "no warning")
        XCTAssertTrue(warnings.first?.contains("extraneous bytes") == true, report.input.warning ?? "no warning")
        XCTAssertTrue(warnings.last?.hasPrefix(" profile ignored") == true, report.input.warning ?? "no warning")
    }

    /// `intent:` in a config reaches Little CMS: a LUT profile whose perceptual and relative
    /// tables differ (made at test time with lcms), each output against `jpgicc -t0` / `-t1`.
    func testTheConfigsIntentReachesTheConversion() throws {
        let folder = TemporaryFolder()
        let script = adobeRGB.deletingLastPathComponent().appendingPathComponent("make_lut_profile.py").path
        _ = try ReferenceTool.output(("python3", "python3"), [script, folder.file("lut.icc")])
        let card = testCard(width: 48, height: 32)
        let input = folder.write("in/p.jpg", try ImageCodec.encode(card, options: EncodeOptions(
            format: .jpeg, quality: 95, icc: try folder.bytes("lut.icc"))))
        let config = try ConfigLoader.parse(text: """
            watches:
              - name: w
                path: ./in
                outputs:
                  - path: ./out/{stem}-relative.png
                    intent: relative
                    chain: []
                  - path: ./out/{stem}-perceptual.png
                    intent: perceptual
                    chain: []
            """, fileName: "intent.yaml", baseDirectory: folder.path)
        let report = runner.run(inputPath: input, watchName: "w", outputs: config.watches[0].outputs, seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        for (name, flag) in [("relative", "-t1"), ("perceptual", "-t0")] {
            _ = try ReferenceTool.output(ReferenceTool.jpgicc, [flag, "-q100", input, folder.file("\(flag).jpg")])
            let reference = try ImageCodec.decode(try folder.bytes("\(flag).jpg")).image
            let ours = try ImageCodec.decode(try folder.bytes("out/p-\(name).png")).image
            XCTAssertGreaterThanOrEqual(psnr(ours, reference), 38, "intent: \(name) against jpgicc \(flag)")
        }
    }
}
