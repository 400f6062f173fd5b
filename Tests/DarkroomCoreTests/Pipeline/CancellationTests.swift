import XCTest
@testable import DarkroomCore

/// A render's ``Cancellation`` stops it inside a step: the scheduler checks it between bands and
/// strips, so a long filter stops part-way through, with ``PipelineError/cancelled``.
final class CancellationTests: XCTestCase {
    /// Cancels the render when it is given strip number `cancelAt` (1-based), and counts strips.
    struct CancellingSink: StripSink {
        let quantiser = ChecksumSink.Sum()
        let cancellation: Cancellation
        let cancelAt: Int
        var strips = 0
        mutating func write(_ strip: Double, rows: Range<Int>) throws {
            strips += 1
            if strips == cancelAt { cancellation.cancel() }
        }
    }

    /// Counts the source rows the decoder side was asked for.
    final class CountingSource: RowSource {
        let size: Size
        let isOpaque = true, isEightBit = true
        var delivered = 0
        init(_ size: Size) { self.size = size }
        func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
            for r in 0..<count { (target + r * stride).update(repeating: Pixel(0.5, 0.25, 0.75, 1), count: size.width) }
            delivered += count
        }
    }

    private func pipeline(height: Int) throws -> Pipeline {
        let chain = ChainCompiler.compile(try ChainSyntax.parse("gaussian_blur radius=4 | sepia").resolve(seed: 1))
        return Pipeline(chain: chain, source: .init(size: Size(width: 200, height: height), isOpaque: true, isEightBit: true),
                        bandHeight: 16)
    }

    func testACancelledRenderStopsPartWayWithCancelledAndWritesNoMoreStrips() throws {
        let height = 4000
        let pipeline = try pipeline(height: height)
        let strips = (height + 15) / 16
        for concurrency in [1, 2] {
            let cancellation = Cancellation()
            let source = CountingSource(Size(width: 200, height: height))
            var sink = CancellingSink(cancellation: cancellation, cancelAt: 3)
            XCTAssertThrowsError(try pipeline.run(from: source, into: &sink, executor: StripExecutor(bandHeight: 16, concurrency: concurrency),
                                                  deadline: .after(seconds: 3600, cancellation: cancellation))) { error in
                XCTAssertEqual(error as? PipelineError, .cancelled, "a cancellation, not a failure or a time-out")
            }
            XCTAssertEqual(sink.strips, 3, "no strip is written after the one that cancelled (\(concurrency) threads)")
            XCTAssertEqual(cancellation.progress.strips, 3)
            XCTAssertEqual(cancellation.progress.of, strips)
            // The strips in flight when it was cancelled end at their next band: the decoder
            // read a few bands past the third strip, nowhere near the whole image.
            XCTAssertLessThan(source.delivered, height / 4, "the source was read on after the cancellation (\(concurrency) threads)")
        }
    }

    func testARenderCancelledBeforeItStartsWritesNothing() throws {
        let cancellation = Cancellation()
        cancellation.cancel()
        let source = CountingSource(Size(width: 200, height: 400))
        var sink = CancellingSink(cancellation: cancellation, cancelAt: 0)
        XCTAssertThrowsError(try pipeline(height: 400).run(from: source, into: &sink, deadline: .after(seconds: 3600, cancellation: cancellation))) {
            XCTAssertEqual($0 as? PipelineError, .cancelled)
        }
        XCTAssertEqual(sink.strips, 0)
        XCTAssertEqual(source.delivered, 0)
    }

    func testAnUncancelledRenderWithACancellationRunsToTheEndAndReportsEveryStrip() throws {
        let cancellation = Cancellation()
        var sink = CancellingSink(cancellation: cancellation, cancelAt: 0)
        _ = try pipeline(height: 400).run(from: CountingSource(Size(width: 200, height: 400)), into: &sink,
                                          deadline: .after(seconds: 3600, cancellation: cancellation))
        XCTAssertEqual(sink.strips, 25)
        XCTAssertEqual(cancellation.progress.strips, 25)
        XCTAssertEqual(cancellation.progress.of, 25)
        XCTAssertFalse(cancellation.isCancelled)
    }
}
