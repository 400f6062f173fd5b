import DarkroomCodecs
@testable import DarkroomCore
import DarkroomDrawing
import XCTest

/// `draw` as the last step between an 8-bit decoder and an 8-bit encoder paints straight onto
/// the decoded samples (``RGB8OutputKernel``), as cairo paints on an RGB24 surface: no float
/// bands. Its pixels are the float path's where one shape covers a pixel, and within 1/255
/// where translucent shapes overlap (each is rounded to 8 bits as it is painted, as cairo
/// does, where the float path rounds once at the end).
final class EightBitDrawTests: XCTestCase {
    /// Overlapping translucent fills, antialiased strokes (a dashed one, a thick diagonal), an
    /// even-odd star, opacity, and a multiply and a screen shape (the blend modes' own path).
    static let shapes = """
        draw shapes=[{shape=ellipse, center=[40%,45%], radii=[30%,25%], fill=#22d8c3a0}, \
        {shape=rect, x=20%, y=10%, width=45%, height=70%, fill=#d68ea497, stroke=#102030c0, line_width=3}, \
        {shape=line, points=[3,5,150,90], stroke=#e60806c5, line_width=9.5}, \
        {shape=polygon, points=[80,10,95,70,50,30,110,30,65,70], fill=#3050f0b0, fill_rule=even_odd, opacity=0.8}, \
        {shape=polyline, points=[10,80,60,20,120,85], stroke=#ffee00, line_width=4, dash=[7,3], cap=round, join=round}, \
        {shape=ellipse, center=[70%,60%], radii=[20%,30%], fill=#808080, blend=multiply}, \
        {shape=rounded_rect, x=5, y=50, width=60, height=40, radius=9, fill=#4080ff80, blend=screen}, \
        {shape=ellipse, center=[50%,50%], radii=[12%,12%], fill=#ff000040, stroke=#00ff0040, line_width=6}]
        """

    /// Noise with flat patches (0 and 255 included), as an opaque 8-bit PNG.
    private func photo(_ width: Int, _ height: Int) throws -> [UInt8] {
        var rng = SeededGenerator(seed: 7)
        let image = Image(width: width, height: height) { x, y in
            if x < 12 { return Pixel(0, 0, 0, 1) }
            if y < 6 { return Pixel(1, 1, 1, 1) }
            func v() -> Float { Float(UInt8.random(in: 0...255, using: &rng)) / 255 }
            return Pixel(v(), v(), v(), 1)
        }
        return try ImageCodec.encode(image, options: EncodeOptions(format: .png))
    }

    /// Renders `chain` on the file `input` as the daemon does: decoder, pipeline, encoder.
    private func render(_ chain: String, _ input: [UInt8], format: ImageFormat = .png, bandHeight: Int = 16) throws
        -> (plan: ChainRenderer.Plan, output: ChainRenderer.Output) {
        let compiled = ChainCompiler.compile(try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 1))
        let plan = ChainRenderer.plan(compiled, header: try ImageCodec.readInfo(input), bandHeight: bandHeight)
        let executor = StripExecutor(bandHeight: bandHeight, concurrency: 2)
        return (plan, try ChainRenderer.render(input, plan: plan, options: EncodeOptions(format: format), limits: DecodeLimits(),
                                               executor: executor))
    }

    /// The same chain on float pixels: the file decoded to float, the chain, quantised once.
    private func floatPath(_ chain: String, _ input: [UInt8], bandHeight: Int = 16) throws -> (image: Image, stats: RenderStats) {
        let decoded = try ImageCodec.decode(input).image
        let compiled = ChainCompiler.compile(try ChainSyntax.parse(chain, registry: .shipped).resolve(seed: 1))
        let (drawn, stats) = try compiled.run(decoded, executor: StripExecutor(bandHeight: bandHeight, concurrency: 2))
        return (try ImageCodec.decode(try ImageCodec.encode(drawn, options: EncodeOptions(format: .png))).image, stats)
    }

    func testDrawingOnTheDecodedBytesGivesTheFloatPathsPixelsWithinOneLevel() throws {
        let (w, h) = (157, 95)
        let input = try photo(w, h)
        let (plan, output) = try render(Self.shapes, input)
        XCTAssertNotNil(plan.pipeline.rgb8Writer, "draw last, opaque 8-bit source: the 8-bit path")
        let eightBit = try ImageCodec.decode(output.bytes).image
        let (float, floatStats) = try floatPath(Self.shapes, input)
        // 8-bit bands (3 bytes a pixel) where the float path holds 16 bytes a pixel.
        XCTAssertLessThan(output.stats.peakPixelBytes, floatStats.peakPixelBytes / 3, "no float bands")
        XCTAssertEqual(eightBit.size, float.size)
        let worst = zip(eightBit.pixels, float.pixels).map { a, b in (0..<3).map { abs(a[$0] - b[$0]) }.max()! }.max()! * 255
        XCTAssertLessThanOrEqual(worst, 1.001, "at most one level apart")
        // And the shapes are there: the drawn image is not the input.
        let original = try ImageCodec.decode(input).image
        XCTAssertGreaterThan(zip(eightBit.pixels, original.pixels).filter { $0 != $1 }.count, w * h / 3)
    }

    /// Where no two shapes overlap, each pixel is rounded once on either path: the same bytes.
    func testShapesThatDoNotOverlapGiveTheFloatPathsBytes() throws {
        let chain = """
            draw shapes=[{shape=ellipse, center=[30,25], radii=[22,17], fill=#22d8c3a0}, \
            {shape=line, points=[60,5,150,40], stroke=#e60806c5, line_width=7.5, cap=round}, \
            {shape=rect, x=70.5, y=50.25, width=60, height=30, fill=#3050f0, opacity=0.35}, \
            {shape=polyline, points=[5,60,30,90,55,60], stroke=#ffee0090, line_width=3, dash=[5,2]}]
            """
        let input = try photo(157, 95)
        let (plan, output) = try render(chain, input)
        XCTAssertNotNil(plan.pipeline.rgb8Writer)
        XCTAssertEqual(try ImageCodec.decode(output.bytes).image, try floatPath(chain, input).image)
    }

    /// Strips, band heights and threads never change a pixel of the 8-bit path.
    func testBandHeightsDoNotChangeAPixel() throws {
        let input = try photo(131, 77)
        let bands = [2, 5, 16, 64]
        let outputs = try bands.map { try ImageCodec.decode(try render(Self.shapes, input, bandHeight: $0).output.bytes).image }
        for (band, out) in zip(bands, outputs).dropFirst() {
            let differing = (0..<out.pixels.count).filter { out.pixels[$0] != outputs[0].pixels[$0] }
            XCTAssertEqual(differing.count, 0, "band height \(band) against 2: pixels \(differing.prefix(5).map { ($0 % 131, $0 / 131) })")
        }
    }

    /// The float sink of an 8-bit source still reads the decoded bytes (no float decode), and
    /// gives exactly what the float rows give.
    func testAFloatSinkGetsTheFloatPathsPixelsExactly() throws {
        let input = try photo(90, 50)
        let compiled = ChainCompiler.compile(try ChainSyntax.parse(Self.shapes, registry: .shipped).resolve(seed: 1))
        let pipeline = Pipeline(chain: compiled, source: .init(size: Size(width: 90, height: 50), isOpaque: true, isEightBit: true),
                                bandHeight: 8)
        var sink = ImageSink(size: pipeline.outputSize)
        let decoder = try ImageDecoder(ImageInput(input), options: DecodeOptions())
        _ = try pipeline.run(from: decoder, into: &sink, executor: StripExecutor(bandHeight: 8, concurrency: 2))
        XCTAssertEqual(sink.image, try compiled.run(try ImageCodec.decode(input).image, executor: StripExecutor(bandHeight: 8)).image)
    }

    /// JPEG to JPEG, the common case, takes it too.
    func testJPEGToJPEGTakesTheEightBitPath() throws {
        let png = try photo(120, 64)
        let jpeg = try ImageCodec.encode(try ImageCodec.decode(png).image, options: EncodeOptions(format: .jpeg))
        let (plan, output) = try render(Self.shapes, jpeg, format: .jpeg)
        XCTAssertNotNil(plan.pipeline.rgb8Writer)
        XCTAssertLessThan(output.stats.peakPixelBytes, try floatPath(Self.shapes, png).stats.peakPixelBytes / 3, "no float bands")
        XCTAssertEqual(try ImageCodec.readInfo(output.bytes).width, 120)
    }

    /// Only `draw` last, with nothing after it, on an opaque 8-bit source, keeping it opaque.
    func testTheEightBitOutputIsChosenOnlyWhereItHolds() throws {
        let size = Size(width: 64, height: 32)
        func writer(_ text: String, opaque: Bool = true) throws -> Int? {
            let chain = ChainCompiler.compile(try ChainSyntax.parse(text, registry: .shipped).resolve(seed: 1))
            return Pipeline(chain: chain, source: .init(size: size, isOpaque: opaque, isEightBit: true)).rgb8Writer
        }
        let draw = "draw shapes=[{shape=rect, x=2, y=2, width=20, height=9, fill=#ff000080}]"
        XCTAssertNotNil(try writer(draw))
        XCTAssertNil(try writer(draw, opaque: false), "alpha")
        XCTAssertNil(try writer(draw + " | sepia"), "a colour program after it")
        XCTAssertNil(try writer("sepia | " + draw), "a colour program before it")
        XCTAssertNil(try writer(draw + " | gaussian_blur radius=2"), "not last")
        XCTAssertNil(try writer("resize width=32 | " + draw), "does not read the source")
        XCTAssertNil(try writer("draw shapes=[{shape=rect, x=2, y=2, width=20, height=9, fill=red, blend=clear}]"),
                     "clear makes holes: not opaque")
    }

    /// Encoders take 8-bit rows for 8-bit RGB only: not alpha, grey or 16-bit.
    func testOnlyEightBitRGBEncodersTakeTheRows() throws {
        func takes(_ format: ImageFormat, _ traits: OutputTraits, bitDepth: Int? = nil) throws -> Bool {
            var options = EncodeOptions(format: format)
            options.bitDepth = bitDepth
            return try ImageEncoder(size: Size(width: 8, height: 8), options: options, traits: traits).quantiser.takesRGB8Rows
        }
        XCTAssertTrue(try takes(.jpeg, OutputTraits(alpha: false)))
        XCTAssertTrue(try takes(.png, OutputTraits(alpha: false)))
        XCTAssertTrue(try takes(.webp, OutputTraits(alpha: false)))
        XCTAssertFalse(try takes(.png, OutputTraits(alpha: true)))
        XCTAssertFalse(try takes(.png, OutputTraits(alpha: false, grey: true)))
        XCTAssertFalse(try takes(.png, OutputTraits(alpha: false), bitDepth: 16))
    }
}

