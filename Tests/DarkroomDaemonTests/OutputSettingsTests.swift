import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import Foundation
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

/// Config settings a user sets once and then trusts: `progressive:` shows in the written JPEG,
/// and `limits.max_file_bytes` is an inclusive limit (a file of exactly that size is taken).
final class OutputSettingsTests: XCTestCase {
    /// The start-of-frame marker of a JPEG (0xC0 baseline, 0xC1 extended, 0xC2 progressive),
    /// found by walking its segments from SOI as a reader does.
    func frameMarker(_ jpeg: [UInt8]) -> UInt8? {
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return marker }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return nil
    }

    func testProgressiveTrueWritesAProgressiveJPEGAndFalseABaselineOne() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/card.png", try encodedCard(width: 64, height: 48, format: .png))
        let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))
        let report = runner.run(inputPath: input, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/progressive.jpg"), format: .jpeg, progressive: true, chain: ChainSpec([])),
            OutputConfig(pathTemplate: folder.file("out/baseline.jpg"), format: .jpeg, progressive: false, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertEqual(frameMarker(try FileIO.read(folder.file("out/progressive.jpg"))), 0xC2, "SOF2: progressive DCT")
        XCTAssertEqual(frameMarker(try FileIO.read(folder.file("out/baseline.jpg"))), 0xC0, "SOF0: baseline DCT")
    }

    func testMaxFileBytesIsTheLargestSizeTaken() throws {
        let folder = TemporaryFolder()
        let bytes = try encodedCard(width: 40, height: 30, format: .png)
        let input = folder.write("in/card.png", bytes)
        func run(limit: Int) -> JobReport {
            JobRunner(limits: Limits(maxFileBytes: limit), executor: StripExecutor(concurrency: 2))
                .run(inputPath: input, watchName: "w",
                     outputs: [OutputConfig(pathTemplate: folder.file("out/{stem}-\(limit).png"), format: .png, chain: ChainSpec([]))], seed: 1)
        }
        let exact = run(limit: bytes.count)
        XCTAssertEqual(exact.status, .ok, "a file of exactly max_file_bytes: \(exact.error?.description ?? "")")
        let over = run(limit: bytes.count - 1)
        XCTAssertEqual(over.status, .failed)
        XCTAssertEqual(over.error?.code, "too_large")
        XCTAssertTrue(over.error?.message.contains("\(bytes.count) bytes") == true, over.error?.message ?? "")
    }
}
