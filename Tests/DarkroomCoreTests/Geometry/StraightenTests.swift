@testable import DarkroomCore
import Foundation
import XCTest

/// `straighten`: the kept rectangle against its closed form, and the pixels against ImageMagick's
/// `-distort SRT` (a rotation about the centre, sampled bilinearly at pixel centres) cut to the
/// same rectangle.
final class StraightenTests: XCTestCase {
    /// Smooth, 8-bit, opaque: every pixel distinct enough that a misplaced sample shows.
    static func scene(_ w: Int, _ h: Int) -> Image {
        Image(width: w, height: h) { x, y in
            let (fx, fy) = (Float(x), Float(y))
            let r = (128 + 100 * sin(fx / 9) * cos(fy / 13)).rounded() / 255
            let g = (128 + 100 * sin((fx + fy) / 17)).rounded() / 255
            let b = (128 + 90 * cos(fx / 7 - fy / 11)).rounded() / 255
            return Pixel(r, g, b, 1)
        }
    }

    private func straighten(_ angle: String, _ image: Image) throws -> Image {
        try makeFilter("straighten angle=\(angle)", as: StraightenFilter.self).apply(to: image, executor: smallTiles)
    }

    /// Does a `cw × ch` rectangle centred on a `w × h` image turned by `angle` about its centre
    /// lie inside the turned image? Its corners, turned back, must lie in the image.
    private func fits(_ cw: Double, _ ch: Double, in w: Double, _ h: Double, angle: Double) -> Bool {
        [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)].allSatisfy { sx, sy in
            let (u, v) = (sx * cw / 2, sy * ch / 2)
            let x = u * cos(angle) + v * sin(angle), y = -u * sin(angle) + v * cos(angle)
            return abs(x) <= w / 2 + 1e-9 && abs(y) <= h / 2 + 1e-9
        }
    }

    /// The output is the largest rectangle of the input's aspect inside the turned image, to the
    /// pixel: it fits, and one more pixel on the short side (the aspect kept) does not.
    func testTheKeptRectangleIsTheLargestOfTheSameAspect() throws {
        for (w, h) in [(300, 200), (200, 300), (97, 97), (640, 120)] {
            for degrees in [1.0, -2.5, 10, -33, 45, 80, 120, -170] {
                let angle = degrees * .pi / 180
                let filter = try makeFilter("straighten angle=\(degrees)deg", as: StraightenFilter.self)
                let out = filter.outputSize(for: Size(width: w, height: h))
                let label = "\(w)×\(h) at \(degrees)°"
                XCTAssertTrue(fits(Double(out.width), Double(out.height), in: Double(w), Double(h), angle: angle), label)
                // Maximal: a rectangle of the same aspect one pixel wider, or one pixel taller, does not fit.
                let (fw, fh) = (Double(w), Double(h))
                XCTAssertFalse(fits(Double(out.width + 1), Double(out.width + 1) * fh / fw, in: fw, fh, angle: angle), "\(label): wider fits")
                XCTAssertFalse(fits(Double(out.height + 1) * fw / fh, Double(out.height + 1), in: fw, fh, angle: angle), "\(label): taller fits")
            }
        }
    }

    /// Pixel for pixel, ImageMagick turning the image about its centre into a viewport of the
    /// same size, bilinear at pixel centres: within 1.5/255 (ImageMagick writes 8-bit, rounded;
    /// darkroom's float is compared before quantising).
    func testPixelsAreImageMagicksRotationAboutTheCentre() throws {
        let image = Self.scene(300, 200)
        for degrees in [10.0, -7.3, 33] {
            let ours = try straighten("\(degrees)deg", image)
            let magick = try ExternalTool.convert.run(image, [
                "$IN", "-virtual-pixel", "edge", "-interpolate", "bilinear", "-filter", "point",
                "-set", "option:distort:viewport", "\(ours.width)x\(ours.height)+0+0",
                "-distort", "SRT", "150,100 1 \(degrees) \(Double(ours.width) / 2),\(Double(ours.height) / 2)",
                "-depth", "8", "$OUT",
            ])
            XCTAssertEqual(magick.size, ours.size)
            XCTAssertLessThan(ImageComparison.maxDifference(ours, magick, channels: 0..<3), 1.5 / 255, "\(degrees)°")
            XCTAssertTrue(ours.pixels.allSatisfy { $0[3] == 1 }, "no corner of background shows: every pixel is opaque")
        }
    }

    /// A positive angle turns clockwise on screen, as `rotate` does: straightening by 90° is the
    /// quarter turn (the largest rectangle of a square's aspect is then the whole square).
    func testPositiveAnglesTurnClockwise() throws {
        let square = Image(width: 5, height: 5) { x, y in Pixel(Float(x) / 5, Float(y) / 5, 0.5, 1) }
        let out = try straighten("90deg", square)
        XCTAssertEqual(out.size, square.size)
        for y in 0..<5 { for x in 0..<5 { XCTAssertEqual(ImageComparison.distance(out[x, y], square[y, 4 - x], channels: 0..<4), 0, accuracy: 1e-5) } }
        XCTAssertTrue(try makeFilter("straighten angle=0", as: StraightenFilter.self).isIdentity)
    }

    /// A small angle, what levelling a horizon takes, streams: strips read a short run of input
    /// rows, so a tall image is never held whole; a large one keeps the input whole, compact.
    func testSmallAnglesStream() throws {
        func producer(_ angle: String) throws -> Pipeline.Node.Producer {
            let chain = ChainCompiler.compile(try ChainSyntax.parse("straighten angle=\(angle)").resolve(seed: 1))
            return Pipeline(chain: chain, source: .init(size: Size(width: 2000, height: 2000), isOpaque: true, isEightBit: true),
                            bandHeight: 16).nodes.last!.producer
        }
        guard case .kernel = try producer("2deg") else { return XCTFail("a 2° straighten should stream") }
        guard case .randomAccess = try producer("40deg") else { return XCTFail("a 40° straighten reads its input at random") }
    }
}
