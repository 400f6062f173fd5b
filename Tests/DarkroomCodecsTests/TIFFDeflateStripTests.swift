@testable import DarkroomCore
import DarkroomTestSupport
import XCTest
@testable import DarkroomCodecs

/// A striped deflate TIFF's strips are compressed on the render threads when the render strips
/// hold whole TIFF strips, by the writer otherwise: the same file either way (and so whatever
/// the threads), and libvips reads back exactly the samples written, 8 and 16 bits, grey, RGB
/// and RGBA.
final class TIFFDeflateStripTests: XCTestCase {
    private func samples(count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: i / 7 + Int(state >> 29))
        }
    }

    /// `bytes` written in render strips of `band` rows, as the quantiser hands them over.
    private func encode(_ bytes: [UInt8], size: Size, traits: OutputTraits, sixteenBit: Bool, band: Int,
                        compressedOnThreads: inout Int) throws -> [UInt8] {
        var options = EncodeOptions(format: .tiff, bitDepth: sixteenBit ? 16 : 8)
        options.tiffCompression = .deflate
        var encoder = try ImageEncoder(size: size, options: options, traits: traits)
        let rowBytes = bytes.count / size.height
        for y in stride(from: 0, to: size.height, by: band) {
            let rows = y..<min(y + band, size.height)
            let strip = encoder.quantiser.encoded(Array(bytes[rows.lowerBound * rowBytes..<rows.upperBound * rowBytes]), rows: rows)
            if strip.tiffStrips != nil { compressedOnThreads += 1 }
            try encoder.write(strip, rows: rows)
        }
        return try encoder.finish()
    }

    func testStripsMadeOnTheRenderThreadsOrByTheWriterGiveOneFileThatReadsBackExactly() throws {
        let folder = TemporaryFolder()
        for (channels, sixteenBit) in [(1, false), (3, false), (4, false), (1, true), (3, true), (4, true)] {
            let size = Size(width: 301, height: 71)
            let traits = OutputTraits(alpha: channels == 4, grey: channels == 1)
            let bytes = samples(count: size.area * channels * (sixteenBit ? 2 : 1), seed: UInt32(channels))
            var onThreads = 0, byWriter = 0
            let threaded = try encode(bytes, size: size, traits: traits, sixteenBit: sixteenBit, band: 32, compressedOnThreads: &onThreads)
            let written = try encode(bytes, size: size, traits: traits, sixteenBit: sixteenBit, band: 5, compressedOnThreads: &byWriter)
            let label = "\(channels) channels, \(sixteenBit ? 16 : 8)-bit"
            XCTAssertEqual(onThreads, 3, "every render strip of 32 rows holds whole TIFF strips, \(label)")
            XCTAssertEqual(byWriter, 0, "strips of 5 rows do not, \(label)")
            XCTAssertEqual(threaded, written, label)
            let path = try ReferenceTool.file(threaded, named: "out.tif", in: folder)
            _ = try ReferenceTool.output(ReferenceTool.vips, ["rawsave", path, folder.file("out.raw")])
            XCTAssertEqual(try folder.bytes("out.raw"), bytes, label)
        }
    }
}
