import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

/// A file that is only found broken near its end, after the pipeline has rendered (and the
/// encoder taken) its first strips: the job fails, and no output nor temporary file appears.
final class StreamingFailureTests: XCTestCase {
    func run(_ bytes: [UInt8], name: String, in folder: TemporaryFolder) -> JobReport {
        let input = folder.write("in/\(name)", bytes)
        let outputs = [
            OutputConfig(pathTemplate: folder.file("out/{stem}-sharp.jpg"), format: .jpeg,
                         chain: try! ChainSyntax.parse("convolve kernel=[[0,-1,0],[-1,5,-1],[0,-1,0]]")),
            OutputConfig(pathTemplate: folder.file("out/{stem}-small.png"), format: .png,
                         chain: try! ChainSyntax.parse("resize scale=0.5")),
        ]
        // Small bands, so dozens of strips are written before the damage is reached.
        let runner = JobRunner(limits: Limits(), executor: StripExecutor(bandHeight: 8, concurrency: 2))
        return runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
    }

    func testAJPEGTruncatedInItsLastRowsFailsWithNoOutput() throws {
        let folder = TemporaryFolder()
        let jpeg = try ImageCodec.encode(testCard(width: 300, height: 400), options: EncodeOptions(format: .jpeg))
        let report = run(Array(jpeg.prefix(jpeg.count * 9 / 10)), name: "cut.jpg", in: folder)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "truncated", report.error?.message ?? "")
        XCTAssertEqual(report.outputs, [])
        XCTAssertEqual(folder.listing("out"), [], "no output and no temporary file")
    }

    func testAPNGWithABadChecksumNearItsEndFailsWithNoOutput() throws {
        let folder = TemporaryFolder()
        var png = try ImageCodec.encode(testCard(width: 300, height: 400), options: EncodeOptions(format: .png))
        // A byte of the last IDAT's data, just before its CRC and the IEND chunk (12 bytes).
        png[png.count - 12 - 4 - 3] ^= 0x5A
        let report = run(png, name: "crc.png", in: folder)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "corrupt", report.error?.message ?? "")
        XCTAssertEqual(folder.listing("out"), [], "no output and no temporary file")
    }

    func testAProgressiveJPEGWithTooManyScansIsRefused() throws {
        // A progressive file of a few scans decodes; the scan limit is what refuses a bomb.
        let jpeg = try ImageCodec.encode(testCard(width: 64, height: 48), options: EncodeOptions(format: .jpeg, progressive: true))
        XCTAssertNoThrow(try ImageDecoder(jpeg, options: DecodeOptions(maxScans: 20)))
        XCTAssertThrowsError(try ImageDecoder(jpeg, options: DecodeOptions(maxScans: 2))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge)
            XCTAssertTrue((error as? CodecError)?.message.contains("scans") ?? false)
        }
    }
}
