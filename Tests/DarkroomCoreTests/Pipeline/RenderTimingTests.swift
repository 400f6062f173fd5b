import XCTest
@testable import DarkroomCore

/// The decode and encode times a render reports (the report's `timings.decode`/`encode`) are
/// shares of its wall time: the decoder and the encoder often run at once on two threads, and
/// the seconds both ran must not be counted twice.
final class RenderTimingTests: XCTestCase {
    func testOverlapIsTheTimeBothStagesRan() {
        var a = WallSpans(), b = WallSpans()
        a.record(from: 0, to: 10); a.record(from: 20, to: 30); a.record(from: 40, to: 41)
        b.record(from: 5, to: 25); b.record(from: 29, to: 35)
        // [5,10) + [20,25) + [29,30) = 5 + 5 + 1
        XCTAssertEqual(a.overlap(with: b), 11)
        XCTAssertEqual(b.overlap(with: a), 11)
        XCTAssertEqual(a.nanoseconds, 21)
        XCTAssertEqual(WallSpans().overlap(with: a), 0)
    }

    func testSharesCountEverySecondOnce() {
        var decode = WallSpans(), encode = WallSpans()
        decode.record(from: 0, to: 3_000_000_000)
        encode.record(from: 1_000_000_000, to: 4_000_000_000)
        let (d, e) = WallSpans.shares(decode, encode)
        // 4 s of wall time: 1 s decoding alone, 1 s encoding alone, 2 s both, split evenly.
        XCTAssertEqual(d, 2, accuracy: 1e-9)
        XCTAssertEqual(e, 2, accuracy: 1e-9)
        XCTAssertEqual(d + e, 4, accuracy: 1e-9)
    }

    /// A sink that takes its time over each strip, so the encoder overlaps the decoder.
    struct SlowSink: StripSink {
        struct Nothing: StripQuantiser { func prepare(_ rows: RegionView) -> Int { rows.rect.height } }
        let quantiser = Nothing()
        var writes = 0
        mutating func write(_ strip: Int, rows: Range<Int>) throws { usleep(2000); writes += 1 }
    }

    func testARenderNeverReportsMoreDecodeAndEncodeThanItsWallTime() throws {
        let chain = ChainCompiler.compile(try ChainSyntax.parse("sepia | gaussian_blur radius=1").resolve(seed: 1))
        for _ in 0..<5 {
            let pipeline = Pipeline(chain: chain, source: .init(size: Size(width: 600, height: 800), isOpaque: true, isEightBit: true))
            var sink = SlowSink()
            let stats = try pipeline.run(from: GeneratedSource(width: 600, height: 800), into: &sink,
                                         executor: StripExecutor(bandHeight: 16, concurrency: 2))
            XCTAssertGreaterThan(stats.decodeSeconds, 0)
            // At least 2 ms a strip in `write`, of which at most half is shared with the decoder.
            XCTAssertGreaterThanOrEqual(stats.encodeSeconds, Double(sink.writes) * 0.002 / 2, "\(sink.writes) strips")
            XCTAssertLessThanOrEqual(stats.decodeSeconds + stats.encodeSeconds, stats.seconds)
            // The decoder's CPU time is still reported, whole, on its node.
            XCTAssertGreaterThanOrEqual(stats.nodes[0].seconds + 1e-9, stats.decodeSeconds)
        }
    }
}
