import DarkroomCodecs
import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Glibc
import XCTest
@testable import DarkroomDaemon

/// JPEG and PNG outputs are written straight into the temporary file next to their place as
/// they are encoded (as TIFF outputs are), never held in memory: the same bytes as an encode
/// into memory, nothing left behind, and a device that refuses the bytes is a clean
/// `write_failed` naming the system's reason.
final class StreamedOutputTests: XCTestCase {
    let runner = JobRunner(limits: Limits(), executor: StripExecutor(bandHeight: 16, concurrency: 2))

    /// Noise, so that the JPEG is several times libjpeg's 64 KB block and is written block by
    /// block while rows still come.
    private func noise(width: Int, height: Int) -> Image {
        var state: UInt32 = 12345
        return Image(width: width, height: height) { _, _ in
            func next() -> Float { state = state &* 1_664_525 &+ 1_013_904_223; return Float(state >> 24) / 255 }
            return Pixel(next(), next(), next(), 1)
        }
    }

    /// The same render into memory, as `ImageCodec`'s callers get it.
    private func inMemory(_ input: [UInt8], _ output: OutputConfig) throws -> [UInt8] {
        let plan = ChainRenderer.plan(CompiledChain(stages: []), header: try ImageCodec.readInfo(input),
                                      bandHeight: runner.executor.bandHeight)
        return try ChainRenderer.render(input, plan: plan, options: EncodeOptions(output), limits: DecodeLimits(),
                                        executor: runner.executor).bytes
    }

    func testJPEGAndPNGOutputsAreWrittenInPlaceByteForByteAsInMemory() throws {
        let folder = TemporaryFolder()
        let source = try ImageCodec.encode(noise(width: 300, height: 280), options: EncodeOptions(format: .png))
        // A palette source: its PNG output keeps the rows until it knows the colours fit, then writes.
        let palettePath = folder.file("few-source.png")
        try ToolProcess.run("/usr/bin/convert", ["-seed", "5", "-size", "120x90", "plasma:fractal", "-colors", "40", "PNG8:" + palettePath])
        for (name, bytes) in [("noise.png", source), ("few.png", try FileIO.read(palettePath))] {
            let input = folder.write("in/\(name)", bytes)
            let outputs = [
                OutputConfig(pathTemplate: folder.file("out/{stem}.jpg"), format: .jpeg, chain: ChainSpec([])),
                OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([])),
            ]
            let report = runner.run(inputPath: input, watchName: "w", outputs: outputs, seed: 1)
            XCTAssertEqual(report.status, .ok, report.error?.description ?? "")
            for (output, written) in zip(outputs, report.outputs) {
                let onDisk = try FileIO.read(written.path)
                XCTAssertEqual(written.bytes, onDisk.count, "the report gives the file's size")
                XCTAssertEqual(onDisk, try inMemory(bytes, output), "\(written.path): the bytes differ from an encode into memory")
            }
        }
        XCTAssertGreaterThan(try FileIO.read(folder.file("out/noise.jpg")).count, 2 << 16, "more than two of libjpeg's 64 KB blocks")
        XCTAssertEqual(try FileIO.read(folder.file("out/few.png"))[25], 3, "the palette source's PNG is indexed (colour type 3)")
        XCTAssertEqual(folder.listing("out"), ["few.jpg", "few.png", "noise.jpg", "noise.png"], "no temporary file is left")
    }

    /// Also where the strips are compressed on the render threads: a PNG wide enough for its
    /// strips to be deflate segments of their own, a deflate TIFF.
    func testADeviceThatRefusesTheBytesIsAWriteFailureWithItsReason() throws {
        for (width, height) in [(200, 150), (1700, 40)] {
            let input = try ImageCodec.encode(noise(width: width, height: height), options: EncodeOptions(format: .png))
            let plan = ChainRenderer.plan(CompiledChain(stages: []), header: try ImageCodec.readInfo(input),
                                          bandHeight: runner.executor.bandHeight)
            var deflateTIFF = EncodeOptions(format: .tiff)
            deflateTIFF.tiffCompression = .deflate
            for var options in [EncodeOptions(format: .jpeg), EncodeOptions(format: .png), EncodeOptions(format: .tiff), deflateTIFF] {
                // /dev/full: every write fails with ENOSPC, as on a full disk.
                let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
                XCTAssertGreaterThanOrEqual(fd, 0)
                defer { close(fd) }
                options.destination = fd
                XCTAssertTrue(options.writesToDestination)
                let label = "\(options.format) \(options.tiffCompression) \(width)×\(height)"
                XCTAssertThrowsError(try ChainRenderer.render(input, plan: plan, options: options, limits: DecodeLimits(),
                                                              executor: runner.executor)) { error in
                    let codecError = error as? CodecError
                    XCTAssertEqual(codecError?.code, .writeFailed, "\(label): \(error)")
                    XCTAssertEqual(codecError?.message, "No space left on device", label)
                }
            }
        }
    }

    func testWebPAndAVIFAreStillEncodedInMemory() {
        var options = EncodeOptions(format: .webp)
        options.destination = 3
        XCTAssertFalse(options.writesToDestination, "libwebp encodes the whole picture at the end")
        options.format = .avif
        XCTAssertFalse(options.writesToDestination)
    }
}
