@testable import DarkroomCore
import DarkroomTestSupport
import XCTest
@testable import DarkroomCodecs

/// A PNG's image data deflated in segments on the render threads and joined into one zlib
/// stream (with the rows of small strips deflated by the writer in between): the file is the
/// same byte for byte whatever the threads, `pngcheck` accepts it, and libvips reads back
/// exactly the samples written, for every layout (grey, grey and alpha, RGB, RGBA; 8 and 16
/// bits) and every effort.
final class PNGSegmentTests: XCTestCase {
    /// Photo-like samples: smooth ramps with noise, so that every row filter has something to do.
    private func samples(width: Int, height: Int, bytesPerPixel: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<width * height * bytesPerPixel).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223
            let x = i / bytesPerPixel % width, y = i / (bytesPerPixel * width), c = i % bytesPerPixel
            return UInt8(truncatingIfNeeded: x / 3 + y * 2 + c * 40 + Int(state >> 29))
        }
    }

    private struct Layout {
        var channels: Int, sixteenBit: Bool
        var bytesPerPixel: Int { channels * (sixteenBit ? 2 : 1) }
        var traits: OutputTraits { OutputTraits(alpha: channels % 2 == 0, grey: channels <= 2) }
    }

    private let layouts = [Layout(channels: 1, sixteenBit: false), Layout(channels: 2, sixteenBit: false),
                           Layout(channels: 3, sixteenBit: false), Layout(channels: 4, sixteenBit: false),
                           Layout(channels: 1, sixteenBit: true), Layout(channels: 2, sixteenBit: true),
                           Layout(channels: 3, sixteenBit: true), Layout(channels: 4, sixteenBit: true)]

    /// Writes `bytes` as the render threads hand strips over: each strip of `band` rows made
    /// into what the quantiser makes of it (a segment when large enough), in order.
    private func encode(_ bytes: [UInt8], width: Int, height: Int, layout: Layout, band: Int, compression: Int = 6,
                        effort: Int = 2, segments: inout Int) throws -> [UInt8] {
        var options = EncodeOptions(format: .png, bitDepth: layout.sixteenBit ? 16 : 8, compression: compression)
        options.pngEffort = effort
        var encoder = try ImageEncoder(size: Size(width: width, height: height), options: options, traits: layout.traits)
        let rowBytes = width * layout.bytesPerPixel
        for y in stride(from: 0, to: height, by: band) {
            let rows = y..<min(y + band, height)
            let strip = encoder.quantiser.encoded(Array(bytes[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes]), rows: rows)
            if strip.segment != nil { segments += 1 }
            try encoder.write(strip, rows: rows)
        }
        return try encoder.finish()
    }

    /// The samples libvips decodes from `png` (host byte order for 16 bits, as written).
    private func decodedByVips(_ png: [UInt8], in folder: TemporaryFolder) throws -> [UInt8] {
        let path = try ReferenceTool.file(png, named: "out.png", in: folder)
        _ = try ReferenceTool.output(ReferenceTool.pngcheck, ["-q", path])
        _ = try ReferenceTool.output(ReferenceTool.vips, ["rawsave", path, folder.file("out.raw")])
        return try folder.bytes("out.raw")
    }

    /// Wide strips become segments, the short last strip goes to the writer's own stream; a
    /// narrow image is the writer's alone. libvips reads back every sample exactly.
    func testEveryLayoutAndEffortReadsBackExactly() throws {
        let folder = TemporaryFolder()
        for layout in layouts {
            // Wide enough for 16-row strips of 64 KB; 37 rows: two segments and a 5-row tail.
            for (width, height) in [(4200 / layout.bytesPerPixel + 7, 37), (50, 37)] {
                let bytes = samples(width: width, height: height, bytesPerPixel: layout.bytesPerPixel, seed: UInt32(width))
                for effort in 0...2 {
                    var segments = 0
                    let png = try encode(bytes, width: width, height: height, layout: layout, band: 16, effort: effort, segments: &segments)
                    let label = "\(layout.channels) channels, \(layout.sixteenBit ? 16 : 8)-bit, \(width)×\(height), effort \(effort)"
                    XCTAssertEqual(segments, width > 50 ? 2 : 0, label)
                    XCTAssertEqual(png[24], layout.sixteenBit ? 16 : 8, "IHDR bit depth, \(label)")
                    XCTAssertEqual(png[25], [0, 4, 2, 6][layout.channels - 1], "IHDR colour type, \(label)")
                    XCTAssertEqual(try decodedByVips(png, in: folder), bytes, label)
                }
            }
        }
    }

    /// Levels 0 to 9 all read back; 0 stores (the largest file), 9 is no larger than 1; effort 2
    /// (a filter per row) is smaller than no filter on photo-like rows.
    func testCompressionAndEffortTradeSizeAndReadBack() throws {
        let folder = TemporaryFolder()
        let layout = Layout(channels: 3, sixteenBit: false), width = 1500, height = 70
        let bytes = samples(width: width, height: height, bytesPerPixel: 3, seed: 9)
        var sizes = [Int: Int]()
        var segments = 0
        for level in 0...9 {
            let png = try encode(bytes, width: width, height: height, layout: layout, band: 16, compression: level, segments: &segments)
            XCTAssertEqual(try decodedByVips(png, in: folder), bytes, "compression \(level)")
            sizes[level] = png.count
        }
        XCTAssertGreaterThan(sizes[0]!, bytes.count, "level 0 stores the filtered bytes")
        XCTAssertLessThanOrEqual(sizes[9]!, sizes[1]!)
        let unfiltered = try encode(bytes, width: width, height: height, layout: layout, band: 16, effort: 0, segments: &segments)
        XCTAssertLessThan(sizes[6]!, unfiltered.count, "filtered rows deflate smaller")
    }

    /// The whole render, on one thread and on two (strips rendered, quantised and deflated on
    /// either, in any order): the same file, byte for byte.
    func testThreadsWriteTheSameFileAsOneThread() throws {
        let size = Size(width: 1700, height: 150)
        var state: UInt32 = 3
        let image = Image(width: size.width, height: size.height) { x, y in
            state = state &* 1_664_525 &+ 1_013_904_223
            let grain = Float(state >> 26) / 255
            return Pixel(Float(x) / 1700 + grain, Float(y) / 150, Float((x + y) % 97) / 97, 1)
        }
        let pipeline = Pipeline(chain: CompiledChain(stages: []), source: Pipeline.traits(of: image), bandHeight: 16)
        func render(threads: Int) throws -> [UInt8] {
            var encoder = try ImageEncoder(size: size, options: EncodeOptions(format: .png), traits: OutputTraits(alpha: false))
            XCTAssertNotNil(encoder.quantiser.png, "strips are deflated on the render threads")
            _ = try pipeline.run(from: ImageSource(image), into: &encoder, executor: StripExecutor(bandHeight: 16, concurrency: threads),
                                 slots: ComputeSlots(count: threads))
            return try encoder.finish()
        }
        let one = try render(threads: 1)
        for _ in 0..<3 { XCTAssertEqual(try render(threads: 2), one, "two threads") }
        let folder = TemporaryFolder()
        let path = try ReferenceTool.file(one, named: "one.png", in: folder)
        XCTAssertTrue(try ReferenceTool.output(ReferenceTool.pngcheck, [path]).contains("OK"))
        XCTAssertEqual(try ImageCodec.decode(one).image.size, size)
    }
}
