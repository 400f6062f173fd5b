import XCTest
@testable import DarkroomCore

/// A source that computes its rows instead of storing them, so a test can stream a tall image
/// without holding it.
final class GeneratedSource: RowSource {
    let size: Size
    let isOpaque = true
    let isEightBit = true
    private let origin: (x: Int, y: Int)
    private var next = 0

    /// `crop` of a `width` × `height` image (all of it when nil), as a decoder with crop-on-load delivers.
    init(width: Int, height: Int, crop: Rect? = nil) {
        let region = crop ?? Rect(x: 0, y: 0, width: width, height: height)
        size = region.size
        origin = (region.x, region.y)
    }

    func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        for r in 0..<count {
            let y = origin.y + next + r
            for i in 0..<size.width {
                let x = origin.x + i
                target[r * stride + i] = Pixel(Float(x % 251) / 251, Float(y % 241) / 241, Float((x ^ y) & 255) / 255, 1)
            }
        }
        next += count
    }
}

/// Takes strips and keeps only a checksum.
struct ChecksumSink: StripSink {
    struct Sum: StripQuantiser {
        func prepare(_ rows: RegionView) -> Double {
            var s = 0.0
            for y in rows.rect.y..<rows.rect.maxY {
                let p = rows.pointer(rows.rect.x, y)
                for x in 0..<rows.rect.width { s += Double(p[x][0] + p[x][1] + p[x][2]) }
            }
            return s
        }
    }
    let quantiser = Sum()
    var total = 0.0
    var rows = 0
    mutating func write(_ strip: Double, rows: Range<Int>) throws {
        XCTAssertEqual(rows.lowerBound, self.rows, "strips arrive in order")
        total += strip
        self.rows = rows.upperBound
    }
}

final class PipelineMemoryTests: XCTestCase {
    func chain(_ text: String) throws -> CompiledChain { ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)) }

    /// The estimate is the documented formula (``Pipeline/estimatedPeakBytes(executor:compactSource:)``),
    /// worked out here by hand for a 3×3 convolution on a 40-pixel-wide float source, bands of
    /// 16 rows, 2 threads, read-ahead 2; a pixel is 16 bytes.
    /// - Output (the convolution): one band per strip rendered at once, of 16 × 40 pixels: 10 240 B.
    /// - Source: padded 1 column each side for the 3×3 reach (stride 42): 16 × 42 × 16 = 10 752 B
    ///   a band. Output band k reads source bands k−1…k+1.
    /// - One strip in play (the default), decode-ahead 2: the strip reads 3 bands (the bands
    ///   alive while strip k renders are k−1…k+1), more than the decoder's 2: 3 bands at any height.
    /// - Two strips in play, anywhere in the 4 strips the encoder's window allows (2 + 2),
    ///   decode-ahead 4: those 4 read at most 6 consecutive bands (4 in a 64-row image, which
    ///   has only 4); the strip bound (2 × 3 + 2 shared) is 8; the decoder's read-ahead is 4: so
    ///   4 bands at 64 rows, 6 at 640 or 6400, and 2 output bands.
    func testTheEstimateIsTheDocumentedFormula() throws {
        let one = StripExecutor(bandHeight: 16, concurrency: 2, readAhead: 2, decodeAhead: 2, stripsInPlay: 1)
        let two = StripExecutor(bandHeight: 16, concurrency: 2, readAhead: 2, decodeAhead: 4, stripsInPlay: 2)
        func pipeline(height: Int) throws -> Pipeline {
            try Pipeline(chain: chain("convolve kernel=[[0,-1,0],[-1,5,-1],[0,-1,0]]"),
                         source: .init(size: Size(width: 40, height: height), isOpaque: true, isEightBit: false), bandHeight: 16)
        }
        func estimate(height: Int, _ executor: StripExecutor) throws -> Int {
            try pipeline(height: height).estimatedPeakBytes(executor: executor)
        }
        for height in [64, 640, 6400] {
            XCTAssertEqual(try estimate(height: height, one), 10_240 + 3 * 10_752, "height \(height)")
        }
        XCTAssertEqual(try estimate(height: 64, two), 2 * 10_240 + 4 * 10_752)
        XCTAssertEqual(try estimate(height: 640, two), 2 * 10_240 + 6 * 10_752)
        XCTAssertEqual(try estimate(height: 6400, two), 2 * 10_240 + 6 * 10_752, "memory follows the width, not the height")
        // And it holds: renders of the tall one stay within it, whichever schedule the threads take.
        for executor in [one, two] {
            for _ in 0..<20 {
                var sink = ChecksumSink()
                let stats = try pipeline(height: 640).run(from: GeneratedSource(width: 40, height: 640), into: &sink, executor: executor)
                XCTAssertEqual(sink.rows, 640)
                XCTAssertLessThanOrEqual(stats.peakPixelBytes, try estimate(height: 640, executor))
            }
        }
    }

    /// Pixel memory follows the width and the chain, not the height: a 200×16000 image streams
    /// through a blur, a resize and a sharpen in the same memory as a 200×1600 one, far below
    /// one float copy of it (51 MB), and below the bound the pipeline computes in advance.
    func testATallImageStreamsInMemoryBoundedByItsWidth() throws {
        let chain = try chain("crop y=10 height=99% | gaussian_blur radius=2 | resize scale=0.5 kernel=bilinear | sepia | convolve kernel=[[0,-1,0],[-1,5,-1],[0,-1,0]]")
        var peaks = [Int](), estimates = [Int]()
        let width = 200
        for height in [1600, 16000] {
            let pipeline = Pipeline(chain: chain, source: .init(size: Size(width: width, height: height), isOpaque: true, isEightBit: true))
            let executor = StripExecutor(bandHeight: 32, concurrency: 2)
            var sink = ChecksumSink()
            let source = GeneratedSource(width: width, height: height, crop: pipeline.sourceCrop)
            let stats = try pipeline.run(from: source, into: &sink, executor: executor)
            XCTAssertEqual(sink.rows, pipeline.outputSize.height)
            XCTAssertLessThanOrEqual(stats.peakPixelBytes, pipeline.estimatedPeakBytes(executor: executor))
            peaks.append(stats.peakPixelBytes)
            estimates.append(pipeline.estimatedPeakBytes(executor: executor))
        }
        let float = MemoryLayout<Pixel>.stride
        // Five nodes' bands of 32 rows, a few in flight each: tens of rows of the width per node.
        XCTAssertLessThan(peaks[1], 40 * 32 * (width + 512) * float, "peaks \(peaks)")
        // The bound (a measured peak follows how the threads happened to be scheduled) must not
        // grow with the height.
        XCTAssertLessThan(Double(estimates[1]), Double(estimates[0]) * 1.25, "ten times the height, the same memory: \(estimates)")
    }

    func testARotationKeepsItsInputCompactNotAsFloat() throws {
        let source = Size(width: 300, height: 1500)
        let pipeline = Pipeline(chain: try chain("transform rotate=30deg canvas=grow"),
                                source: .init(size: source, isOpaque: true, isEightBit: true))
        var sink = ChecksumSink()
        let stats = try pipeline.run(from: GeneratedSource(width: 300, height: 1500), into: &sink)
        XCTAssertGreaterThanOrEqual(stats.peakPixelBytes, source.area * 3, "the input is held whole (3 bytes a pixel)")
        XCTAssertLessThan(stats.peakPixelBytes, source.area * 16 / 2, "never as 16-byte float pixels")
        XCTAssertLessThanOrEqual(stats.peakPixelBytes, pipeline.estimatedPeakBytes())
    }

    func testADeadlineStopsTheRender() throws {
        let pipeline = Pipeline(chain: try chain("gaussian_blur radius=5"), source: .init(size: Size(width: 300, height: 3000), isOpaque: true, isEightBit: true))
        var sink = ChecksumSink()
        XCTAssertThrowsError(try pipeline.run(from: GeneratedSource(width: 300, height: 3000), into: &sink,
                                              deadline: Deadline(nanoseconds: Deadline.now() - 1))) { error in
            XCTAssertEqual(error as? PipelineError, .timedOut)
        }
        XCTAssertEqual(sink.rows, 0, "nothing was written")
    }

    func testASourceErrorStopsEveryThreadAndIsRethrown() throws {
        struct Broken: Error {}
        final class FailingSource: RowSource {
            let size = Size(width: 200, height: 400)
            let isOpaque = true, isEightBit = true
            var delivered = 0
            func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
                if delivered + count > 250 { throw Broken() }
                for r in 0..<count { (target + r * stride).update(repeating: .zero, count: size.width) }
                delivered += count
            }
        }
        let pipeline = Pipeline(chain: try chain("resize scale=0.5 | convolve kernel=[1,1,1,1,1,1,1,1,1]"),
                                source: .init(size: Size(width: 200, height: 400), isOpaque: true, isEightBit: true))
        var sink = ChecksumSink()
        XCTAssertThrowsError(try pipeline.run(from: FailingSource(), into: &sink, executor: StripExecutor(bandHeight: 8))) {
            XCTAssertTrue($0 is Broken)
        }
        XCTAssertLessThan(sink.rows, 125, "rows after the failure are never written")
    }
}
