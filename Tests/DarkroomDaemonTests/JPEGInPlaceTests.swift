import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest
@testable import DarkroomDaemon

/// A JPEG input is read in place (libjpeg fed 64 KB at a time from the job's descriptor), never
/// held whole: the same pixels and output bytes as from memory — with shrink- and crop-on-load
/// and its metadata — the same hash, and the plain file limit (not TIFF's sixteen times).
final class JPEGInPlaceTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(bandHeight: 16, concurrency: 2))

    /// A photo-like JPEG of a few hundred KB (several of the reader's 64 KB reads), with EXIF.
    private func photo(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("photo.jpg")
        try ToolProcess.run("/usr/bin/convert", ["-seed", "3", "-size", "640x480", "plasma:fractal",
                                                 "(", "+clone", "+noise", "Gaussian", ")", "-compose", "overlay", "-composite",
                                                 "-quality", "95", path])
        try ToolProcess.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Artist=Darkroom Test", "-Orientation#=6", path])
        return path
    }

    func testAJPEGIsReadInPlaceAndHashedAsInMemory() throws {
        let folder = TemporaryFolder()
        let path = try photo(in: folder)
        let bytes = try FileIO.read(path)
        XCTAssertGreaterThan(bytes.count, 3 << 16, "more than three of the reader's 64 KB reads")
        let input = try InputFile.open(path, maxBytes: 1 << 30, lease: false)
        XCTAssertTrue(input.content.isInPlace)
        XCTAssertEqual(try input.sha256(), SHA256.hex(bytes))
        // The header and metadata read through the descriptor are those read from memory.
        let (inPlace, inPlaceMetadata) = try ImageCodec.readHeader(input.content)
        let (inMemory, inMemoryMetadata) = try ImageCodec.readHeader(ImageInput(bytes))
        XCTAssertEqual(inPlace, inMemory)
        XCTAssertEqual(inPlaceMetadata, inMemoryMetadata)
        XCTAssertNotNil(inPlaceMetadata.exif)
        // The whole image, decoded both ways.
        let a = try ImageCodec.decode(input.content).image, b = try ImageCodec.decode(bytes).image
        XCTAssertTrue(a == b, "the pixels differ")
    }

    func testOutputsFromAJPEGReadInPlaceAreThoseFromMemory() throws {
        let folder = TemporaryFolder()
        let path = try photo(in: folder)
        let bytes = try FileIO.read(path)
        // Plain, shrink-on-load (1/4 DCT decode), crop-on-load (rows skipped, columns cut).
        for (name, text) in [("plain", "gamma power=1.1"), ("small", "resize width=150"),
                             ("crop", "crop x=101 y=77 width=300 height=200")] {
            let output = OutputConfig(pathTemplate: folder.file("out/{stem}-\(name).png"), format: .png,
                                      chain: try ChainSyntax.parse(text))
            let report = runner.run(inputPath: path, watchName: "w", outputs: [output], seed: 1)
            XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
            let compiled = ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1))
            let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(bytes), bandHeight: runner.executor.bandHeight)
            let fromMemory = try ChainRenderer.render(bytes, plan: plan, options: EncodeOptions(output), limits: DecodeLimits(),
                                                      executor: runner.executor)
            // The pixels (the report's output also carries the EXIF block, which this render was not given).
            let written = try ImageCodec.decode(try FileIO.read(folder.file("out/photo-\(name).png"))).image
            XCTAssertTrue(written == (try ImageCodec.decode(fromMemory.bytes).image), "\(name): the pixels differ")
        }
    }

    func testAJPEGKeepsThePlainFileLimit() throws {
        let folder = TemporaryFolder()
        let path = try photo(in: folder)
        let size = try FileIO.read(path).count
        XCTAssertNoThrow(try InputFile.open(path, maxBytes: size, lease: false))
        XCTAssertThrowsError(try InputFile.open(path, maxBytes: size - 1, lease: false)) {
            XCTAssertEqual($0 as? InputFile.OpenError, .tooLarge(size: size))
        }
    }

    func testAJPEGCutShortReadInPlaceIsTruncatedAndLeavesNothing() throws {
        let folder = TemporaryFolder()
        let whole = try FileIO.read(try photo(in: folder))
        let cut = folder.write("cut.jpg", Array(whole.prefix(whole.count / 2)))
        let report = runner.run(inputPath: cut, watchName: "w", outputs: [
            OutputConfig(pathTemplate: folder.file("out/{stem}.jpg"), format: .jpeg, chain: ChainSpec([])),
        ], seed: 1)
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.code, "truncated", report.error?.description ?? "")
        XCTAssertEqual(folder.listing("out"), [], "neither an output nor a temporary file")
    }
}
