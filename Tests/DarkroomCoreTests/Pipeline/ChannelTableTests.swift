import XCTest
@testable import DarkroomCore

/// Point filters alone on an opaque 8-bit source, channel by channel, read the decoder's 8-bit
/// rows through three 256-entry tables (``ChannelTableKernel``): the output is the float path's
/// bit for bit, since each entry is the fused pass's own result for that value.
final class ChannelTableTests: XCTestCase {
    static let channelwise = ["invert", "levels black=0.1 white=0.9 gamma=1.3", "levels black=0.2 channel=red",
                              "curves points=[0,0.1,0.4,0.6,1,0.9]", "exposure ev=0.7", "gamma power=0.5 | invert | posterize levels=5",
                              "color_matrix r=[1.2,0,0,0] g=[0,0.8,0,0] b=[0,0,-1,0] bias=[0,0.1,1,0]"]

    private func pipeline(_ text: String, _ size: Size) throws -> Pipeline {
        Pipeline(chain: ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)),
                 source: .init(size: size, isOpaque: true, isEightBit: true), bandHeight: 16)
    }

    private func render(_ pipeline: Pipeline, _ source: any RowSource) throws -> Image {
        var sink = ImageSink(size: pipeline.outputSize)
        _ = try pipeline.run(from: source, into: &sink, executor: StripExecutor(bandHeight: 16, concurrency: 2))
        return sink.image
    }

    func testTheTablesGiveTheFloatPathsPixelsExactly() throws {
        var rng = SeededGenerator(seed: 3)
        for text in Self.channelwise {
            let source = RGB8Source.random(width: Int.random(in: 20...301, using: &rng), height: Int.random(in: 10...90, using: &rng), using: &rng)
            let p = try pipeline(text, source.size)
            XCTAssertNotNil(p.rgb8Reader, "\(text): the tables should read the 8-bit rows")
            let tables = try render(p, source)
            let float = try render(p, RGB8Source.FloatOnly(RGB8Source(width: source.size.width, height: source.size.height,
                                                                                        samples: source.samples)))
            XCTAssertEqual(tables, float, text)
            // And the float path is the program on the decoded pixels, as the filters define it.
            let decoded = Image(width: source.size.width, height: source.size.height, pixels: (0..<source.size.area).map { i in
                Pixel(Float(source.samples[3 * i]) / 255, Float(source.samples[3 * i + 1]) / 255, Float(source.samples[3 * i + 2]) / 255, 1)
            })
            let reference = try ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)).run(decoded, executor: smallTiles).image
            XCTAssertEqual(tables, reference, text)
        }
    }

    /// Operations that mix channels (sepia, hue, a 3-D cube), an alpha channel, or filters after
    /// the colour keep the float path.
    func testChannelMixingOrAlphaOrMoreFiltersKeepTheFloatPath() throws {
        let size = Size(width: 64, height: 32)
        for text in ["sepia", "hue angle=1", "invert | sepia", "grayscale", "invert | resize width=30"] {
            let p = try pipeline(text, size)
            XCTAssertFalse(p.nodes.contains { if case .kernel(_ as ChannelTableKernel, _) = $0.producer { true } else { false } }, text)
        }
        let alpha = Pipeline(chain: ChainCompiler.compile(try ChainSyntax.parse("invert").resolve(seed: 1)),
                             source: .init(size: size, isOpaque: false, isEightBit: true))
        XCTAssertNil(alpha.rgb8Reader)
        XCTAssertEqual(alpha.nodes.count, 1, "with alpha, invert stays in the decoder's node")
    }
}
