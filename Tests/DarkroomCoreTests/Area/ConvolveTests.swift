@testable import DarkroomCore
import XCTest

final class ConvolveTests: XCTestCase {
    func testNormalisedBoxKeepsAFlatImageFlatUpToItsEdges() throws {
        let grey = Pixel(0.2, 0.4, 0.6, 1)
        for chain in ["convolve kernel=[[1,1,1],[1,1,1],[1,1,1]]", "convolve kernel=[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]"] {
            let out = try regionFilter(chain).apply(to: Image(width: 19, height: 11, fill: grey), executor: smallTiles)
            for p in out.pixels { XCTAssertLessThan(ImageComparison.distance(p, grey), 1e-6, chain) }
        }
    }

    func testDeltaReturnsTheKernelRotatedLikeVips() throws {
        // vips conv (and this filter) correlate: row 0 of the kernel weighs the pixels above, so an
        // impulse comes back as the kernel turned half a turn.
        for (n, chain) in [(3, "convolve kernel=[[1,2,3],[4,5,6],[7,8,9]] scale=1"),
                           (5, "convolve kernel=[" + (1...25).map(String.init).joined(separator: ",") + "] scale=1")] {
            var delta = Image(width: 11, height: 11, fill: .zero)
            delta[5, 5] = Pixel(1, 1, 1, 1)
            let out = try regionFilter(chain).apply(to: delta, executor: smallTiles)
            let r = n / 2
            for ky in 0..<n {
                for kx in 0..<n {
                    let expected = Float(ky * n + kx + 1)
                    XCTAssertEqual(out[5 + r - kx, 5 + r - ky], Pixel(repeating: expected), "\(n)×\(n) at \(kx),\(ky)")
                }
            }
            XCTAssertEqual(out[0, 0], .zero)
        }
    }

    func testScaleDefaultsToTheKernelSumAndOffsetIsAdded() throws {
        let grey = Image(width: 5, height: 5, fill: Pixel(0.5, 0.5, 0.5, 1))
        // Sum 8: the sharpening kernel of the libvips benchmark leaves flat areas unchanged.
        let sharpen = try regionFilter("convolve kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]]")
        XCTAssertEqual(try sharpen.apply(to: grey, executor: smallTiles)[2, 2], Pixel(0.5, 0.5, 0.5, 1))
        // Sum 0: scale 1, so a flat area goes to 0 + offset, alpha too (every channel alike).
        let edges = try regionFilter("convolve kernel=[[0,-1,0],[-1,4,-1],[0,-1,0]] offset=0.25")
        XCTAssertEqual(try edges.apply(to: grey, executor: smallTiles)[2, 2], Pixel(0.25, 0.25, 0.25, 0.25))
        let halved = try regionFilter("convolve kernel=[[0,0,0],[0,1,0],[0,0,0]] scale=2")
        XCTAssertEqual(try halved.apply(to: grey, executor: smallTiles)[0, 4], Pixel(0.25, 0.25, 0.25, 0.5))
    }

    func testTilesDoNotShow() throws {
        let image = TestImage.texture(width: 40, height: 33)
        for chain in ["convolve kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]]", "convolve kernel=[" + (1...25).map(String.init).joined(separator: ",") + "]"] {
            let filter = try regionFilter(chain)
            XCTAssertEqual(try filter.apply(to: image, executor: StripExecutor(bandHeight: 128, concurrency: 1)),
                           try filter.apply(to: image, executor: smallTiles), chain)
        }
    }

    func testAgreesWithVipsConv() throws {
        let image = TestImage.texture(width: 53, height: 38)
        let cases: [(values: [Double], scale: Double, offset: Double)] = [
            ([-1, -1, -1, -1, 16, -1, -1, -1, -1], 8, 0),
            ((1...25).map { Double(($0 * 7) % 11) - 3 }, 9, 0.125),
        ]
        for c in cases {
            let n = Int(Double(c.values.count).squareRoot())
            let chain = "convolve kernel=[" + c.values.map { "\($0)" }.joined(separator: ",") + "] scale=\(c.scale) offset=\(c.offset)"
            let ours = try regionFilter(chain).apply(to: image, executor: smallTiles)
            let vips = try ExternalTool.vips.run(image, inputFormat: .pfm, outputFormat: .pfm,
                                                 ["conv", "$IN", "$OUT", "kernel.mat", "--precision", "float"],
                                                 files: ["kernel.mat": vipsMatrixFile(c.values, size: n, scale: c.scale, offset: c.offset)])
            // Float on both sides, same clamp at the edges: only rounding differs (we divide the
            // weights by the scale first, vips divides the sum), far below 1/255.
            XCTAssertLessThan(ImageComparison.meanAbsoluteError(ours, vips), 1e-5, chain)
            XCTAssertLessThan(ImageComparison.maxDifference(ours, vips, channels: 0..<3), 1e-4, chain)
        }
    }

    func testKernelValidation() throws {
        for bad in ["convolve kernel=[[1,2],[3,4]]", "convolve kernel=[1,2,3]", "convolve kernel=[[1,2,3],[4,5,6]]",
                    "convolve kernel=[[1,2,3],[4,5],[6,7,8]]", "convolve kernel=[[1,x,1],[1,1,1],[1,1,1]]",
                    "convolve kernel=[[1,1,1],[1,1,1],[1,1,1]] scale=0", "convolve"] {
            XCTAssertThrowsError(try ChainSyntax.parse(bad), bad) { error in
                let message = (error as? ParameterError)?.message ?? ""
                XCTAssertTrue(message.contains("kernel") || message.contains("scale") || message.contains("matrix"), message)
            }
        }
        do {
            _ = try ChainSyntax.parse("convolve kernel=[1,2,3]")
        } catch {
            XCTAssertTrue(error.message.contains("square matrix"), error.message)
        }
        XCTAssertEqual(ParameterKind.matrix.name, "matrix")
        XCTAssertTrue(try regionFilter("convolve kernel=[[0,0,0],[0,3,0],[0,0,0]]").isIdentity)
        XCTAssertFalse(try regionFilter("convolve kernel=[[0,0,0],[0,3,0],[0,0,0]] offset=0.1").isIdentity)
        let f = try regionFilter("convolve kernel=[" + (1...25).map(String.init).joined(separator: ",") + "]")
        XCTAssertEqual(f.inputRegion(for: Rect(x: 0, y: 0, width: 4, height: 4), inputSize: Size(width: 9, height: 9)),
                       Rect(x: -2, y: -2, width: 8, height: 8))
    }
}
