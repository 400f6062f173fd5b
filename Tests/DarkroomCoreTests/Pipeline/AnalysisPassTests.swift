import XCTest
@testable import DarkroomCore

/// White with a block of colour: what a trim keeps.
final class BlockSource: RowSource {
    let size: Size
    let isOpaque = true
    let isEightBit = true
    let block: Rect
    private let origin: (x: Int, y: Int)
    private var next = 0

    init(size: Size, block: Rect, crop: Rect? = nil) {
        let region = crop ?? Rect(size: size)
        (self.size, self.block, origin) = (region.size, block, (region.x, region.y))
    }

    func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        for r in 0..<count {
            let y = origin.y + next + r
            for i in 0..<size.width {
                let x = origin.x + i
                let inside = x >= block.x && x < block.maxX && y >= block.y && y < block.maxY
                target[r * stride + i] = inside ? Pixel(Float(x % 7) / 7, Float(y % 5) / 5, 0.2, 1) : Pixel(1, 1, 1, 1)
            }
        }
        next += count
    }
}

final class AnalysisPassTests: XCTestCase {
    let registry = FilterRegistry.standard

    private func chain(_ text: String) throws -> CompiledChain {
        ChainCompiler.compile(try ChainSyntax.parse(text, registry: registry).resolve(seed: 1))
    }

    /// The statistic is measured per strip in parallel and folded in order: whatever the strips,
    /// it is the statistic of the whole image.
    func testStatisticsAreThoseOfTheWholeImageWhateverTheStrips() {
        let image = KernelContractTests.input(37, 29)
        let request = StatisticRequest(lineExtremes: true, mapSize: Size(width: 4, height: 3))
        var reference: ImageStatistics?
        for executor in [StripExecutor(bandHeight: 4096, concurrency: 1), StripExecutor(bandHeight: 3, concurrency: 2),
                         StripExecutor(bandHeight: 7, concurrency: 3, readAhead: 4)] {
            let pipeline = Pipeline(chain: CompiledChain(stages: []), source: Pipeline.traits(of: image), bandHeight: executor.bandHeight)
            var sink = StatisticsSink(size: image.size, request: request)
            _ = try? pipeline.run(from: ImageSource(image), into: &sink, executor: executor)
            let s = sink.statistics
            XCTAssertEqual(s.histogram[0].reduce(0, +), image.pixels.count)
            let straight = image.pixels.map(\.unpremultiplied)
            XCTAssertEqual(s.minimum[2], straight.map { $0[2] }.min()!)
            XCTAssertEqual(s.maximum[0], straight.map { $0[0] }.max()!)
            XCTAssertEqual(Double(s.mean[1]), straight.map { Double($0[1]) }.reduce(0, +) / Double(straight.count), accuracy: 1e-6)
            var box: Rect?
            for y in 0..<image.height { for x in 0..<image.width where straight[y * image.width + x][0] > 0.9 {
                let p = Rect(x: x, y: y, width: 1, height: 1)
                box = box.map { $0.union(p) } ?? p
            } }
            XCTAssertEqual(s.boundingBox(differingFrom: Pixel(0, 0, 0, 1), by: 0.9), box)
            XCTAssertEqual(s.topLeft, straight[0])
            if let reference {
                XCTAssertEqual(s.histogram, reference.histogram)
                XCTAssertEqual(s.map, reference.map)
            }
            reference = s
        }
        // A map cell is the mean of its pixels: the top-left cell covers x 0..<10, y 0..<10.
        let cell = (0..<10).flatMap { y in (0..<10).map { x in image[x, y] } }
        XCTAssertEqual(reference!.map![0, 0][0], cell.map { $0[0] }.reduce(0, +) / 100, accuracy: 1e-5)
    }

    /// The output's size follows the content: the graph after the analysis is planned once the
    /// statistic is known.
    func testATrimsOutputSizeFollowsTheContent() throws {
        for block in [Rect(x: 7, y: 5, width: 13, height: 7), Rect(x: 0, y: 12, width: 40, height: 3)] {
            let image = Image(width: 40, height: 30) { x, y in
                block.contains(x, y) ? Pixel(0.2, Float(x) / 40, 0.5, 1) : Pixel(1, 1, 1, 1)
            }
            let out = try chain("trim | invert").run(image, executor: smallTiles).image
            XCTAssertEqual(out.size, block.size)
            XCTAssertEqual(out[0, 0][0], 0.8, accuracy: 1e-6, "the filter after the analysis runs on the trimmed image")
        }
        XCTAssertTrue(try chain("trim").hasAnalysis)
        XCTAssertEqual(try chain("trim | resize scale=0.5").stageSizes(for: Size(width: 40, height: 30)).last,
                       Size(width: 20, height: 15), "before the statistic, sizes are the worst case's")
    }

    /// A 200×16000 image streams through both passes (the measuring one and the render) in the
    /// memory of a 200×1600 one, within the estimate made before either.
    func testATallImageStreamsThroughBothPassesWithinTheEstimate() throws {
        let compiled = try chain("gaussian_blur radius=1 | trim threshold=0.3 | resize scale=0.5 kernel=bilinear")
        let executor = StripExecutor(bandHeight: 32, concurrency: 2)
        var peaks = [Int](), estimates = [Int]()
        for height in [1600, 16000] {
            let size = Size(width: 200, height: height), block = Rect(x: 30, y: height * 5 / 16, width: 120, height: height / 4)
            let traits = Pipeline.SourceTraits(size: size, isOpaque: true, isEightBit: true)
            let estimate = Pipeline(chain: compiled.worstCase, source: traits, bandHeight: 32).estimatedPeakBytes(executor: executor)

            // The measuring pass, as resolvingAnalyses runs it.
            let prefix = Pipeline(chain: try chain("gaussian_blur radius=1"), source: traits, bandHeight: 32)
            var sink = StatisticsSink(size: size, request: TrimFilter(parameters: .init()).statisticRequest)
            let measured = try prefix.run(from: BlockSource(size: size, block: block), into: &sink, executor: executor)
            XCTAssertLessThanOrEqual(measured.peakPixelBytes, estimate)

            var sources = 0
            let resolved = try compiled.resolvingAnalyses(source: traits, executor: executor) { crop in
                sources += 1
                return BlockSource(size: size, block: block, crop: crop)
            }
            XCTAssertEqual(sources, 1, "one more decode, of the part before the analysis")
            let pipeline = Pipeline(chain: resolved, source: traits, bandHeight: 32)
            // The blur spreads the block by a pixel or two; the trim follows it.
            XCTAssertEqual(Double(pipeline.outputSize.height), Double(block.height) / 2, accuracy: 2)
            XCTAssertEqual(Double(pipeline.outputSize.width), Double(block.width) / 2, accuracy: 2)
            var output = ChecksumSink()
            let stats = try pipeline.run(from: BlockSource(size: size, block: block), into: &output, executor: executor)
            XCTAssertEqual(output.rows, pipeline.outputSize.height)
            XCTAssertLessThanOrEqual(stats.peakPixelBytes, estimate)
            peaks.append(max(stats.peakPixelBytes, measured.peakPixelBytes))
            estimates.append(estimate)
        }
        // The bound, not a measured peak (which follows how the threads happened to be
        // scheduled), is what must not grow with the height; each peak stays under its bound.
        XCTAssertLessThan(Double(estimates[1]), Double(estimates[0]) * 1.25, "ten times the height, the same memory: \(estimates)")
        XCTAssertLessThan(peaks[1], 200 * 16000 * MemoryLayout<Pixel>.stride / 2, "far below one float copy: \(peaks)")
    }
}
