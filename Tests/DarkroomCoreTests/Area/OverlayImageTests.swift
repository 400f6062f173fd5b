import XCTest
@testable import DarkroomCore

final class OverlayImageTests: XCTestCase {
    private func overlay(_ text: String) throws -> any RegionFilter {
        let resolved = try ChainSyntax.parse(text, assets: TestAssets()).resolve(seed: 1)
        return try XCTUnwrap(resolved.first?.filter as? any RegionFilter)
    }

    /// Source-over of the asset, times the opacity, at the position; untouched elsewhere.
    func testDrawsTheImageAtThePositionWithOpacity() throws {
        let input = KernelContractTests.input(30, 20)
        let stamp = TestAssets.images["stamp.png"]!
        for (text, origin, opacity) in [("overlay_image image=stamp.png position=[4,6] opacity=0.6", (4, 6), Float(0.6)),
                                        ("overlay_image image=stamp.png position=[90%,-10%]", (27, -2), Float(1))] {
            let out = try overlay(text).apply(to: input, executor: smallTiles)
            for y in 0..<20 { for x in 0..<30 {
                let u = x - origin.0, v = y - origin.1
                let under = input[x, y]
                let expected: Pixel
                if u >= 0, v >= 0, u < stamp.size.width, v < stamp.size.height {
                    let top = stamp.pixel(u, v) * opacity
                    expected = top + under * (1 - top[3])
                } else {
                    expected = under
                }
                for c in 0..<4 { XCTAssertEqual(out[x, y][c], expected[c], accuracy: 1e-6, "\(text) at (\(x), \(y))") }
            } }
        }
    }

    func testAMissingImageIsAnErrorNamingTheParameter() {
        XCTAssertThrowsError(try ChainSyntax.parse("overlay_image image=nowhere.png", assets: TestAssets())) { error in
            XCTAssertEqual("\(error)", "overlay_image.image: nowhere.png: no such file")
        }
        XCTAssertThrowsError(try ChainSyntax.parse("overlay_image opacity=0.5", assets: TestAssets())) { error in
            XCTAssertTrue("\(error)".contains("needs image"), "\(error)")
        }
    }

    /// A grey stamp keeps a grey image grey; a colour one does not (the encoder acts on it).
    func testGreyFollowsTheStamp() throws {
        let traits = Pipeline.SourceTraits(size: Size(width: 20, height: 20), isOpaque: true, isEightBit: true, isGrey: true)
        for (name, grey) in [("grey.png", true), ("stamp.png", false)] {
            let chain = ChainCompiler.compile(try ChainSyntax.parse("overlay_image image=\(name)", assets: TestAssets()).resolve(seed: 1))
            XCTAssertEqual(Pipeline(chain: chain, source: traits).outputIsGrey, grey, name)
            XCTAssertFalse(Pipeline(chain: chain, source: traits).outputMayHaveAlpha, name)
        }
    }
}
