import XCTest
@testable import DarkroomCore

/// An empty chain (a format conversion) on an opaque 8-bit source hands the decoded bytes to a
/// sink that takes 8-bit RGB as they are, never through float.
final class EmptyChainRGB8Tests: XCTestCase {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var current: Int { lock.withLock { count } }
    }

    /// A sink taking 8-bit RGB rows that keeps the bytes, and notes any float strip it is given.
    struct BytesSink: StripSink {
        struct Quantiser: StripQuantiser {
            let floatStrips = Counter()
            func prepare(_ rows: RegionView) -> [UInt8] {
                floatStrips.add()
                var bytes = [UInt8]()
                for y in rows.rect.y..<rows.rect.maxY {
                    for x in rows.rect.x..<rows.rect.maxX {
                        let p = rows.pointer(x, y).pointee
                        for v in [p.x, p.y, p.z] { bytes.append(UInt8((min(max(v, 0), 1) * 255).rounded())) }
                    }
                }
                return bytes
            }
            var takesRGB8Rows: Bool { true }
            func prepare(rgb8 rows: RGB8RegionView) -> [UInt8] {
                var bytes = [UInt8]()
                for y in rows.rect.y..<rows.rect.maxY {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: rows.pointer(rows.rect.x, y), count: 3 * rows.rect.width))
                }
                return bytes
            }
        }
        let quantiser = Quantiser()
        var bytes = [UInt8]()
        var nextRow = 0
        mutating func write(_ strip: [UInt8], rows: Range<Int>) throws {
            XCTAssertEqual(rows.lowerBound, nextRow, "strips in order")
            nextRow = rows.upperBound
            bytes += strip
        }
    }

    func testTheDecodedBytesReachTheSinkAsTheyAre() throws {
        var rng = SeededGenerator(seed: 25)
        for (width, height, band) in [(53, 41, 16), (7, 3, 16), (130, 97, 32)] {
            let source = RGB8Source.random(width: width, height: height, using: &rng)
            let pipeline = Pipeline(chain: ChainCompiler.compile([]), source: .init(size: source.size, isOpaque: true, isEightBit: true),
                                    bandHeight: band)
            XCTAssertEqual(pipeline.rgb8Writer, 0, "the source is the output, in 8 bits")
            var sink = BytesSink()
            _ = try pipeline.run(from: source, into: &sink, executor: StripExecutor(bandHeight: band, concurrency: 2))
            XCTAssertEqual(sink.quantiser.floatStrips.current, 0, "\(width)×\(height): no strip went through float")
            XCTAssertEqual(sink.nextRow, height)
            XCTAssertTrue(sink.bytes == source.samples, "\(width)×\(height): the sink got the source's bytes exactly")
        }
    }

    /// A source that cannot hand out bytes (or one with alpha) still converts through float.
    func testAFloatOnlySourceStillRendersThroughFloat() throws {
        var rng = SeededGenerator(seed: 26)
        let source = RGB8Source.random(width: 29, height: 21, using: &rng)
        let pipeline = Pipeline(chain: ChainCompiler.compile([]), source: .init(size: source.size, isOpaque: true, isEightBit: true),
                                bandHeight: 16)
        var sink = BytesSink()
        _ = try pipeline.run(from: RGB8Source.FloatOnly(source), into: &sink)
        XCTAssertGreaterThan(sink.quantiser.floatStrips.current, 0)
        XCTAssertTrue(sink.bytes == source.samples, "the float round trip of 8-bit samples is exact")
        let translucent = Pipeline(chain: ChainCompiler.compile([]), source: .init(size: source.size, isOpaque: false, isEightBit: true))
        XCTAssertNil(translucent.rgb8Writer)
    }
}
