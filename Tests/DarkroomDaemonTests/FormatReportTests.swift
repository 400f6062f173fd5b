import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// The report's input fields for the formats beyond PNG and JPEG: the format is the content's,
/// a name that says otherwise is a warning, pages and frames are counted, and every output
/// format is written as configured.
final class FormatReportTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))

    private func webp(in folder: TemporaryFolder) throws -> [UInt8] {
        let png = folder.write("src.png", try encodedCard(width: 40, height: 30, format: .png))
        try ToolProcess.run("/usr/bin/cwebp", ["-quiet", "-q", "80", png, "-o", folder.file("src.webp")])
        return try FileIO.read(folder.file("src.webp"))
    }

    func testContentDecidesAndAMisleadingNameIsReported() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/photo.jpg", try webp(in: folder))
        let report = runner.run(inputPath: input, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertEqual(report.input.format, "webp")
        XCTAssertEqual(report.input.pages, 1)
        XCTAssertEqual(report.input.warning, "read as WebP: the content is WebP, the name ends in .jpg")
        let named = runner.run(inputPath: folder.write("in/photo.webp", try webp(in: folder)), watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out2/{stem}.png"), format: .png, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertNil(named.input.warning)
    }

    func testEveryOutputFormatIsWrittenAndReported() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.png", try encodedCard(width: 40, height: 30, format: .png))
        var tiff = OutputEncoding()
        tiff.tiffCompression = .deflate
        let outputs = [ImageFormat.webp, .avif, .tiff].map { format in
            OutputConfig(pathTemplate: folder.file("out/{stem}.\(format.fileExtension)"), format: format,
                         encoding: format == .tiff ? tiff : OutputEncoding(), chain: ChainSpec([]))
        }
        let report = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertEqual(report.outputs.map(\.format), ["webp", "avif", "tiff"])
        for output in report.outputs {
            let info = try ImageCodec.readInfo(try FileIO.read(output.path))
            XCTAssertEqual(info.format.rawValue, output.format)
            XCTAssertEqual([info.width, info.height], [40, 30])
        }
    }
}
