import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
@testable import DarkroomDaemon

/// Metadata and depth through a whole job: the config's `metadata:` reaches the files, an
/// unreadable EXIF block is a warning in the report (never a failed file), and the report gives
/// the input's bit depth.
final class MetadataJobTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))

    /// A JPEG whose APP1 Exif segment has a TIFF header pointing its first IFD far past the end.
    private func jpegWithCorruptEXIF() throws -> [UInt8] {
        let clean = try encodedCard(width: 40, height: 30, format: .jpeg)
        let payload = Array("Exif".utf8) + [0, 0] + Array("II".utf8) + [42, 0, 0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 7, count: 30)
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + clean.dropFirst(2)
    }

    private func exifGroups(_ path: String) throws -> [String] {
        let json = try ReferenceTool.output(ReferenceTool.exiftool, ["-j", "-G1", "-a", path])
        let tags = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first ?? [:]
        return tags.keys.filter { $0.hasPrefix("IFD0:") || $0.hasPrefix("ExifIFD:") }.sorted()
    }

    func testCorruptEXIFIsAWarningAndTheOutputsAreWritten() throws {
        let folder = TemporaryFolder()
        let input = folder.write("in/broken-exif.jpg", try jpegWithCorruptEXIF())
        let outputs = [
            OutputConfig(pathTemplate: folder.file("out/{stem}.jpg"), format: .jpeg, chain: try ChainSyntax.parse("resize scale=0.5")),
            OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([])),
        ]
        let report = runner.run(inputPath: input, watchName: "photos", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertEqual(report.outputs.count, 2)
        let warning = try XCTUnwrap(report.input.warning)
        XCTAssertTrue(warning.hasPrefix("EXIF left out: EXIF block is unreadable"), warning)
        XCTAssertFalse(warning.contains("; "), "the same problem met by both outputs is reported once: \(warning)")
        for output in report.outputs {
            XCTAssertEqual(try exifGroups(output.path), [], output.path)
            XCTAssertNoThrow(try ImageCodec.decode(try FileIO.read(output.path)))
        }
    }

    func testMetadataOptionReachesTheFiles() throws {
        let folder = TemporaryFolder()
        let jpeg = folder.write("in/tagged.jpg", try encodedCard(width: 40, height: 30, format: .jpeg))
        _ = try ReferenceTool.output(ReferenceTool.exiftool, ["-q", "-overwrite_original", "-Make=TestCam",
                                                              "-Copyright=(c) Ada", "-GPSLatitude=10", "-GPSLatitudeRef=S", jpeg])
        func encoding(_ metadata: MetadataPolicy.Content, gps: Bool = true) -> OutputEncoding {
            OutputEncoding(metadata: metadata, gps: gps)
        }
        let outputs = [("keep", encoding(.keep)), ("nogps", encoding(.keep, gps: false)), ("strip", encoding(.strip)),
                       ("copyright", encoding(.copyright))].map { name, encoding in
            OutputConfig(pathTemplate: folder.file("out/{stem}-\(name).jpg"), format: .jpeg, encoding: encoding, chain: ChainSpec([]))
        }
        let report = runner.run(inputPath: jpeg, watchName: "photos", outputs: outputs, seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        XCTAssertNil(report.input.warning)
        XCTAssertEqual(report.input.bitDepth, 8)
        let groups = try report.outputs.map { try exifGroups($0.path) }
        XCTAssertTrue(groups[0].contains("IFD0:Make"), "\(groups[0])")
        let gps = try report.outputs.map { output -> Bool in
            try ReferenceTool.output(ReferenceTool.exiftool, ["-s", "-GPSLatitude", output.path]).contains("GPSLatitude")
        }
        XCTAssertEqual(gps, [true, false, false, false])
        XCTAssertTrue(groups[1].contains("IFD0:Copyright"))
        XCTAssertEqual(groups[2], [])
        XCTAssertEqual(groups[3], ["IFD0:Copyright"])
    }

    func testReportGivesTheInputsBitDepth() throws {
        let folder = TemporaryFolder()
        let sixteen = try ImageCodec.encode(testCard(width: 20, height: 10), options: EncodeOptions(format: .png, bitDepth: 16))
        let input = folder.write("in/deep.png", sixteen)
        let report = runner.run(inputPath: input, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertEqual(report.input.bitDepth, 16)
        XCTAssertEqual(try ImageCodec.readInfo(try FileIO.read(report.outputs[0].path)).bitDepth, 16)
    }
}
