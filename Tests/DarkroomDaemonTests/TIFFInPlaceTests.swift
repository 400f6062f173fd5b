import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest
@testable import DarkroomDaemon

/// A TIFF is read in place (strip by strip from its descriptor) and written straight into a
/// temporary file next to its place: the same pixels and bytes as through memory, the same
/// hash `sha256sum` gives, its own size limit, a rewrite in place noticed, and nothing left
/// behind when a render fails.
final class TIFFInPlaceTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(concurrency: 2))

    /// A 16-bit LZW TIFF with a horizontal predictor, striped or tiled, as a scanner writes it (vips).
    private func scan(in folder: TemporaryFolder, name: String, tiled: Bool = false) throws -> String {
        var image = testCard(width: 203, height: 157)
        image.pixels = image.pixels.enumerated().map { i, p in Pixel(p[0], p[1], Float(i % 251) / 250, 1) }
        let png = folder.write("src-\(name).png", try ImageCodec.encode(image, options: EncodeOptions(format: .png, bitDepth: 16)))
        let tif = folder.file(name)
        try ToolProcess.run("/usr/bin/vips", ["tiffsave", png, tif, "--compression", "lzw", "--predictor", "horizontal"]
                            + (tiled ? ["--tile", "--tile-width", "32", "--tile-height", "32"] : []))
        return tif
    }

    private func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    func testATIFFIsReadInPlaceAndHashedAsSha256sumDoes() throws {
        let folder = TemporaryFolder()
        let tif = try scan(in: folder, name: "scan.tif")
        let input = try InputFile.open(tif, maxBytes: 1 << 20, lease: false)
        XCTAssertTrue(input.content.isInPlace)
        XCTAssertEqual(input.content.count, try FileIO.read(tif).count)
        XCTAssertEqual(try input.sha256(), try sha256sum(tif))
        let png = folder.write("card.png", try encodedCard(width: 30, height: 20, format: .png))
        let inMemory = try InputFile.open(png, maxBytes: 1 << 20, lease: false)
        XCTAssertFalse(inMemory.content.isInPlace)
        XCTAssertEqual(try inMemory.sha256(), try sha256sum(png))
    }

    func testATIFFMayBeSixteenTimesMaxFileBytesAndOtherFormatsNot() throws {
        let folder = TemporaryFolder()
        let tif = try scan(in: folder, name: "scan.tif")
        let size = try FileIO.read(tif).count
        XCTAssertNoThrow(try InputFile.open(tif, maxBytes: size / 8, lease: false))
        XCTAssertThrowsError(try InputFile.open(tif, maxBytes: size / 17, lease: false)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .tooLarge(size: size))
        }
        let png = folder.write("card.png", try encodedCard(width: 30, height: 20, format: .png))
        let pngSize = try FileIO.read(png).count
        XCTAssertThrowsError(try InputFile.open(png, maxBytes: pngSize - 1, lease: false)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .tooLarge(size: pngSize))
        }
        // The report names the limit that applies.
        let report = JobRunner(limits: Limits(maxFileBytes: size / 17)).run(inputPath: tif, watchName: "w", outputs: [], seed: 1)
        XCTAssertEqual(report.error?.code, "too_large")
    }

    func testStripsAndTilesReadInPlaceGiveTheSamePixelsAsFromMemory() throws {
        let folder = TemporaryFolder()
        for tiled in [false, true] {
            let tif = try scan(in: folder, name: tiled ? "tiled.tif" : "striped.tif", tiled: tiled)
            let out = folder.file("out/\(tiled ? "tiled" : "striped").png")
            let report = runner.run(inputPath: tif, watchName: "w", outputs: [
                OutputConfig(pathTemplate: out, format: .png, chain: ChainSpec([])),
            ], seed: 1)
            XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
            let fromMemory = try ImageCodec.decode(try FileIO.read(tif)).image
            let written = try ImageCodec.decode(try FileIO.read(out)).image
            XCTAssertEqual(written.size, fromMemory.size)
            XCTAssertTrue(written == fromMemory, "tiled: \(tiled): the pixels differ")
        }
    }

    /// A file of many strips read in place decodes two strips at a time (the next on a thread of
    /// its own): the same pixels as through memory, from the top and from a crop that starts
    /// inside a strip, and the same file cut inside its strips fails cleanly.
    func testManyStripsReadInPlaceTwoAtATimeGiveTheSamePixelsAsFromMemory() throws {
        let folder = TemporaryFolder()
        let source = try scan(in: folder, name: "scan.tif")
        let tif = folder.file("strips.tif")
        try ToolProcess.run("/usr/bin/tiffcp", ["-c", "lzw:2", "-r", "8", source, tif])  // 20 strips of 8 rows
        let bytes = try FileIO.read(tif)
        let full = try ImageCodec.decode(bytes).image
        XCTAssertEqual([full.width, full.height], [203, 157])
        for (name, text, x0, y0) in [("whole", "", 0, 0), ("crop", "crop x=11 y=37 width=150 height=90", 11, 37)] {
            let out = folder.file("out/\(name).png")
            let report = runner.run(inputPath: tif, watchName: "w", outputs: [
                OutputConfig(pathTemplate: out, format: .png,
                             chain: text.isEmpty ? ChainSpec([]) : try ChainSyntax.parse(text)),
            ], seed: 1)
            XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
            let written = try ImageCodec.decode(try FileIO.read(out)).image
            XCTAssertEqual([written.width, written.height], name == "whole" ? [203, 157] : [150, 90])
            var differing = 0
            for y in 0..<written.height {
                for x in 0..<written.width where written[x, y] != full[x + x0, y + y0] { differing += 1 }
            }
            XCTAssertEqual(differing, 0, "\(name): pixels differ from the file decoded in memory")
        }
        // Strips garbled from the middle on (tiffcp puts the directory after them): whichever
        // thread decodes the first bad one, the job fails cleanly.
        let directory = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        XCTAssertGreaterThan(directory, bytes.count * 3 / 4)
        var garbled = bytes
        for i in bytes.count / 2..<bytes.count * 3 / 4 { garbled[i] = 0xff }
        try assertFailsCleanly(folder.write("garbled.tif", garbled), folder: folder)
    }

    /// The job on `path` fails as truncated or corrupt and leaves nothing in the output folder.
    private func assertFailsCleanly(_ path: String, folder: TemporaryFolder, line: UInt = #line) throws {
        let report = runner.run(inputPath: path, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.tif"), format: .tiff, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertEqual(report.status, .failed, line: line)
        XCTAssertTrue(["truncated", "corrupt"].contains(report.error?.code ?? ""), report.error?.description ?? "", line: line)
        let stem = String(FileIO.fileName(of: path).split(separator: ".")[0])
        XCTAssertEqual(folder.listing("out").filter { $0.contains(stem) }, [],
                       "neither an output nor a temporary file", line: line)
    }

    func testATIFFOutputIsWrittenInPlaceByteForByteAsInMemoryAndNothingIsLeftBehind() throws {
        let folder = TemporaryFolder()
        let tif = try scan(in: folder, name: "scan.tif")
        var encoding = OutputEncoding()
        encoding.tiffCompression = .deflate
        let report = runner.run(inputPath: tif, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.tif"), format: .tiff, encoding: encoding, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
        let path = try XCTUnwrap(report.outputs.first?.path)
        let written = try FileIO.read(path)
        XCTAssertEqual(report.outputs.first?.bytes, written.count)
        XCTAssertEqual(folder.listing("out"), ["scan.tif"], "no temporary file is left next to the output")
        XCTAssertEqual(AtomicFile.attribute(OutputPlacement.ownerAttribute, of: path), nil,
                       "`process`-style runs carry no owner mark")

        // The same render through memory: the same bytes.
        let bytes = try FileIO.read(tif)
        let plan = ChainRenderer.plan(CompiledChain(stages: []), header: try ImageCodec.readInfo(bytes),
                                      bandHeight: runner.executor.bandHeight)
        var options = EncodeOptions(format: .tiff)
        options.tiffCompression = .deflate
        let inMemory = try ChainRenderer.render(bytes, plan: plan, options: options, limits: DecodeLimits(),
                                                executor: runner.executor)
        XCTAssertEqual(inMemory.bytes, written)
    }

    func testATruncatedTIFFReadInPlaceFailsCleanlyAndLeavesNoOutput() throws {
        let folder = TemporaryFolder()
        let tif = try scan(in: folder, name: "scan.tif")
        let whole = try FileIO.read(tif)
        // vips writes the directory at the start: cutting the end cuts strips.
        try assertFailsCleanly(folder.write("cut.tif", Array(whole.prefix(whole.count * 2 / 3))), folder: folder)
    }

    func testATIFFRewrittenInPlaceAfterItWasOpenedIsSeenAsChanged() throws {
        let folder = TemporaryFolder()
        let tif = try scan(in: folder, name: "scan.tif")
        let input = try InputFile.open(tif, maxBytes: 1 << 20, lease: false)
        XCTAssertFalse(input.changedSinceOpen)
        let writer = open(tif, O_WRONLY | O_APPEND)
        XCTAssertGreaterThanOrEqual(writer, 0)
        XCTAssertEqual(write(writer, "more", 4), 4)
        close(writer)
        XCTAssertTrue(input.changedSinceOpen)
    }
}
