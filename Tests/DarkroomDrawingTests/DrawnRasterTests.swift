import CMalloc
@testable import DarkroomCore
import DarkroomDrawing
import Foundation
import XCTest

/// The rasters drawing filters hold for a render (an SVG drawn at its size, a text block) are
/// in the memory estimate and in the measured peak, and one that cannot be drawn stops the
/// render with the reason instead of drawing a transparent layer.
final class DrawnRasterTests: XCTestCase {
    /// An SVG whose `<use>` elements reach a million rectangles: it parses, so the config
    /// loads, but librsvg refuses to render more than its limit of referenced elements.
    private static let laughs: String = {
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="30"><defs>"#
        svg += #"<rect id="l0" width="1" height="1" fill="red"/>"#
        for level in 1..<7 {
            svg += "<g id=\"l\(level)\">" + String(repeating: "<use xlink:href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        return svg + ##"</defs><use xlink:href="#l6"/></svg>"##
    }()

    private static let logo = ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><circle cx="20" cy="10" r="9" fill="#c03"/></svg>"##

    func testAnSVGLibrsvgCannotRenderStopsTheRenderWithLibrsvgsReason() throws {
        let assets = DrawingAssets(documents: ["laughs.svg": Self.laughs])
        XCTAssertThrowsError(try draw("overlay_image image=laughs.svg", on: testTexture(60, 40), assets: assets)) { error in
            guard case PipelineError.kernelCannotRender(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.hasPrefix("overlay_image: laughs.svg: the SVG document could not be drawn at 40×30"), why)
            XCTAssertTrue(why.contains("referenced elements"), "librsvg's own words are kept: \(why)")
        }
    }

    func testAGraphicLargerThanARasterMayBeStopsTheRenderInsteadOfDrawingNothing() throws {
        let assets = DrawingAssets(documents: ["logo.svg": Self.logo])
        XCTAssertThrowsError(try draw("overlay_image image=logo.svg width=20000 height=20000", on: testTexture(60, 40), assets: assets)) { error in
            guard case PipelineError.kernelCannotRender(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("would be drawn at 20000×20000"), why)
        }
        // The same document at a size that fits draws.
        let drawn = try draw("overlay_image image=logo.svg width=40 height=20 at=[0,0]", on: testTexture(60, 40), assets: assets)
        XCTAssertGreaterThan(worstDifference(drawn, testTexture(60, 40)), 100)
    }

    /// An SVG overlay 8000 pixels wide and a text block on a 4000-pixel image: the render's
    /// measured peak holds the raster, the estimate covers the peak, and the raster the kernel
    /// says it holds is what the process really allocated for it (glibc's own count).
    func testTheEstimateCoversDrawnRastersAtTheirLargestInputs() throws {
        let assets = DrawingAssets(documents: ["logo.svg": Self.logo])
        let cases: [(chain: String, size: Size, leastRaster: Int)] = [
            ("overlay_image image=logo.svg width=100% height=100% at=[0,0]", Size(width: 8000, height: 96), 8000 * 96 * 4),
            ("draw_text text=\"A wide line of text to fill the block\" size=60% gravity=center", Size(width: 4000, height: 400), 1000 * 200 * 4),
        ]
        for (chain, size, leastRaster) in cases {
            let input = testTexture(size.width, size.height)
            let filter = try drawingFilter(chain, assets: assets)
            let executor = StripExecutor(bandHeight: 16, concurrency: 2)
            // Drawn once small first: the libraries' one-time set-up (fontconfig's cache) is no raster.
            _ = filter.plan(for: Size(width: 64, height: 48))
            let before = Self.heapBytes()
            let pipeline = Pipeline(chain: CompiledChain(stages: [.region(name: "drawn", filter: filter)]),
                                    source: Pipeline.traits(of: input), bandHeight: executor.bandHeight)
            let grown = Self.heapBytes() - before
            let held = pipeline.kernelHeldBytes
            XCTAssertGreaterThanOrEqual(held, leastRaster, chain)
            XCTAssertGreaterThan(Double(grown), 0.9 * Double(held), "\(chain): the raster said to be held was not allocated")
            XCTAssertLessThan(Double(grown), 1.2 * Double(held), "\(chain): drawing allocated more than the raster it holds")
            let (_, stats) = try pipeline.render(input, executor: executor)
            XCTAssertGreaterThanOrEqual(stats.peakPixelBytes, held, chain)
            XCTAssertLessThanOrEqual(stats.peakPixelBytes, pipeline.estimatedPeakBytes(executor: executor), chain)
        }
    }

    /// A filter keeps the rasters of the two sizes it met last, not one per size it ever met:
    /// a daemon sees inputs of many sizes over a config's life.
    func testADrawnRasterPerSizeIsNotKeptForever() throws {
        let assets = DrawingAssets(documents: ["logo.svg": Self.logo])
        let filter = try drawingFilter("overlay_image image=logo.svg width=50% height=50%", assets: assets)
        let before = Self.heapBytes()
        for width in stride(from: 1000, through: 3000, by: 100) {
            _ = filter.plan(for: Size(width: width, height: width))
        }
        let kept = Self.heapBytes() - before
        // Two of the largest rasters are 2 × 1500² × 4 bytes = 18 MB; all 21 would be ~170 MB.
        XCTAssertLessThan(kept, 30_000_000)
    }

    /// Bytes the heap holds now: glibc's own count, both arenas' chunks and mmapped blocks.
    private static func heapBytes() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }
}
