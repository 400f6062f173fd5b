import DarkroomCodecs
@testable import DarkroomCore
import Foundation
import XCTest

/// Progressive JPEGs cost a pass over the image per scan, so a "scan bomb" (thousands of tiny
/// scans in a small file) can hold a worker for hours. The decoder refuses more than
/// `DecodeOptions.maxScans` (500 by default, as libvips), and checks the job's deadline while
/// it consumes scans. The many-scan file is made with jpegtran's `-scans`, as such files are.
final class ScanLimitTests: XCTestCase {
    /// A progressive JPEG of 99 scans: the DC scan, then 33 single-coefficient AC scans for each
    /// of the three components (jpegtran accepts at most 100 scans in a script).
    func manyScans() throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-scans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var script = ["0,1,2: 0 0 0 0;"]
        for component in 0..<3 { for k in 1...33 { script.append("\(component): \(k) \(k) 0 0;") } }
        let scans = folder.appendingPathComponent("scans.txt"), input = folder.appendingPathComponent("in.jpg")
        let output = folder.appendingPathComponent("out.jpg")
        try script.joined(separator: "\n").write(to: scans, atomically: true, encoding: .utf8)
        let card = Image(width: 96, height: 64) { x, y in Pixel(Float(x) / 96, Float(y) / 64, 0.5, 1) }
        try Data(try ImageCodec.encode(card, options: EncodeOptions(format: .jpeg))).write(to: input)
        let jpegtran = Process()
        jpegtran.executableURL = URL(fileURLWithPath: "/usr/bin/jpegtran")
        jpegtran.arguments = ["-scans", scans.path, "-outfile", output.path, input.path]
        try jpegtran.run()
        jpegtran.waitUntilExit()
        XCTAssertEqual(jpegtran.terminationStatus, 0, "jpegtran (Debian's libjpeg-turbo-progs) made the file")
        return [UInt8](try Data(contentsOf: output))
    }

    func testAFileWithMoreScansThanTheLimitIsRefusedAsTooLarge() throws {
        let jpeg = try manyScans()
        let (image, info) = try ImageCodec.decode(jpeg)   // 99 scans: under the default 500
        XCTAssertTrue(info.interlaced)
        XCTAssertEqual(image.size, Size(width: 96, height: 64))
        XCTAssertThrowsError(try ImageDecoder(jpeg, options: DecodeOptions(maxScans: 50))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .tooLarge)
            XCTAssertEqual((error as? CodecError)?.message, "JPEG has more than 50 progressive scans (a decompression bomb?)")
        }
    }

    func testThePassedDeadlineStopsDecodingScansAsATimeout() throws {
        let jpeg = try manyScans()
        let past = Deadline(nanoseconds: Deadline.now() - 1)
        XCTAssertThrowsError(try ImageDecoder(jpeg, options: DecodeOptions(deadline: past))) { error in
            XCTAssertEqual((error as? CodecError)?.code, .timeout, "\(error)")
        }
    }
}
