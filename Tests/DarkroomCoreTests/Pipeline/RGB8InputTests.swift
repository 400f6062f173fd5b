import XCTest
@testable import DarkroomCore

/// An opaque 8-bit image served as a decoder serves it: as float rows, or (being a
/// ``CompactRowSource``) as its 8-bit RGB samples, which the resize's horizontal half reads
/// directly in fixed point.
final class RGB8Source: CompactRowSource {
    let size: Size
    let isOpaque = true
    let isEightBit = true
    let samples: [UInt8]
    private var next = 0

    init(width: Int, height: Int, samples: [UInt8]) {
        size = Size(width: width, height: height)
        self.samples = samples
    }

    /// Noise with edges: random samples, and a hard-edged bright block (lanczos overshoots).
    static func random(width: Int, height: Int, using rng: inout SeededGenerator) -> RGB8Source {
        var samples = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for y in height / 4..<height / 2 { for x in width / 3..<width / 2 { for c in 0..<3 { samples[(y * width + x) * 3 + c] = 255 } } }
        return RGB8Source(width: width, height: height, samples: samples)
    }

    func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
        for r in 0..<count {
            let row = (next + r) * size.width * 3
            for x in 0..<size.width {
                let s = row + 3 * x
                target[r * stride + x] = Pixel(Float(samples[s]) / 255, Float(samples[s + 1]) / 255, Float(samples[s + 2]) / 255, 1)
            }
        }
        next += count
    }

    func readRGB8Rows(count: Int, into target: UnsafeMutablePointer<UInt8>, rowBytes: Int) throws {
        for r in 0..<count {
            let row = (next + r) * size.width * 3
            for i in 0..<size.width * 3 { target[r * rowBytes + i] = samples[row + i] }
        }
        next += count
    }

    /// The same rows, offered as float only (what the pipeline did before the 8-bit path).
    final class FloatOnly: RowSource {
        let inner: RGB8Source
        init(_ inner: RGB8Source) { self.inner = inner }
        var size: Size { inner.size }
        var isOpaque: Bool { true }
        var isEightBit: Bool { true }
        func readRows(count: Int, into target: UnsafeMutablePointer<Pixel>, stride: Int) throws {
            try inner.readRows(count: count, into: target, stride: stride)
        }
    }
}

final class RGB8InputTests: XCTestCase {
    static let chains = ["resize width=37", "resize width=200 kernel=lanczos3", "resize scale=0.26 kernel=bicubic",
                         "resize width=90 height=40 fit=contain background=#336699", "resize width=71 height=33 fit=cover kernel=bilinear",
                         "resize scale=2.7 kernel=lanczos3", "resize width=64 kernel=nearest", "resize scale=0.5 | sepia",
                         "resize width=50 | gaussian_blur radius=2",
                         // The blur's pass down reads the 8-bit rows too, extending the edges itself.
                         "gaussian_blur radius=3", "gaussian_blur radius=12 | resize width=40", "gaussian_blur radius=0.6",
                         // So does a median wider than 3×3 (a histogram per channel: exactly the float medians).
                         "median radius=2", "median radius=7 | resize width=40"]

    func pipeline(_ text: String, _ size: Size, bandHeight: Int = 16) throws -> Pipeline {
        let chain = ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1))
        return Pipeline(chain: chain, source: .init(size: size, isOpaque: true, isEightBit: true), bandHeight: bandHeight)
    }

    func render(_ pipeline: Pipeline, _ source: any RowSource, _ executor: StripExecutor = StripExecutor(bandHeight: 16)) throws -> Image {
        var sink = ImageSink(size: pipeline.outputSize)
        _ = try pipeline.run(from: source, into: &sink, executor: executor)
        return sink.image
    }

    /// The fixed-point horizontal pass gives what the float pass gives, to well within one
    /// 8-bit step, for every kernel, shrinking and enlarging, with padding and crops.
    func testEightBitSourcesResizeAsTheirFloatRowsDo() throws {
        var rng = SeededGenerator(seed: 11)
        for text in Self.chains {
            for _ in 0..<3 {
                let source = RGB8Source.random(width: Int.random(in: 20...301, using: &rng), height: Int.random(in: 10...90, using: &rng),
                                               using: &rng)
                let p = try pipeline(text, source.size)
                XCTAssertNotNil(p.rgb8Reader, "\(text): the resize should read the 8-bit rows")
                let fixed = try render(p, source)
                let float = try render(p, RGB8Source.FloatOnly(RGB8Source(width: source.size.width, height: source.size.height,
                                                                          samples: source.samples)))
                XCTAssertEqual(fixed.size, float.size)
                var worst: Float = 0
                for (a, b) in zip(fixed.pixels, float.pixels) { for c in 0..<4 { worst = max(worst, abs(a[c] - b[c])) } }
                XCTAssertLessThan(worst, 0.5 / 255, "\(text) on \(source.size)")
            }
        }
    }

    func testStripsThreadsAndBandHeightsNeverChangeAPixelOfTheEightBitPath() throws {
        var rng = SeededGenerator(seed: 5)
        let source = RGB8Source.random(width: 157, height: 83, using: &rng)
        for text in Self.chains {
            var reference: Image?
            for (band, executor) in [(64, StripExecutor(bandHeight: 64, concurrency: 1)), (2, StripExecutor(bandHeight: 2, concurrency: 2)),
                                     (5, StripExecutor(bandHeight: 5, concurrency: 3, readAhead: 0))] {
                let p = try pipeline(text, source.size, bandHeight: band)
                let out = try render(p, RGB8Source(width: 157, height: 83, samples: source.samples), executor)
                if let reference { XCTAssertEqual(out, reference, "\(text), band height \(band)") } else { reference = out }
            }
        }
    }

    /// Flat stays flat: each output's fixed-point weights sum to exactly one.
    func testAFlatImageStaysExactlyFlat() throws {
        for value in [0, 1, 128, 254, 255] as [UInt8] {
            let source = RGB8Source(width: 123, height: 20, samples: [UInt8](repeating: value, count: 123 * 20 * 3))
            let out = try render(try pipeline("resize width=47 kernel=lanczos3", source.size), source)
            for p in out.pixels { XCTAssertEqual(p[0], Float(value) / 255, accuracy: 1e-6) }
        }
        for kernel in ResamplingKernel.allCases {
            let weights = AxisWeights(kernel: kernel, sourceLength: 301, outputLength: 77, scale: 301 / 77)
            let (taps, fixed) = try XCTUnwrap(weights.fixedPoint(bits: 14))
            for o in 0..<77 { XCTAssertEqual(fixed[o * taps..<(o + 1) * taps].reduce(0) { $0 + Int($1) }, 1 << 14, "\(kernel)") }
        }
    }

    /// A colour program on the source, or a second reader, keeps the float path.
    func testTheEightBitPathIsTakenOnlyWhenOneEightBitKernelAloneReadsTheSource() throws {
        let size = Size(width: 100, height: 50)
        XCTAssertNil(try pipeline("sepia | resize width=30", size).rgb8Reader)
        XCTAssertNil(try pipeline("unsharp_mask radius=1 | resize width=30", size).rgb8Reader, "the blur and the combine read the source")
        XCTAssertNotNil(try pipeline("resize width=30 | sepia", size).rgb8Reader)
        let alpha = Pipeline(chain: ChainCompiler.compile(try ChainSyntax.parse("resize width=30").resolve(seed: 1)),
                             source: .init(size: size, isOpaque: false, isEightBit: true))
        XCTAssertNil(alpha.rgb8Reader)
    }
}
