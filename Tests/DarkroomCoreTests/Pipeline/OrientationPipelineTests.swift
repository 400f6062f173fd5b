import XCTest
@testable import DarkroomCore

/// The `auto_orient` node: each orientation's pixel map, the rectangles it reads, and which
/// images stream through it and which it keeps whole.
final class OrientationPipelineTests: XCTestCase {
    /// What each EXIF orientation means, stated independently: where stored pixel (x, y) of a
    /// w×h image lands when shown upright (the TIFF/EXIF 2.3 definitions).
    private func shown(_ o: Orientation, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> (Int, Int) {
        switch o {
        case .up: (x, y)
        case .flipHorizontal: (w - 1 - x, y)
        case .rotate180: (w - 1 - x, h - 1 - y)
        case .flipVertical: (x, h - 1 - y)
        case .transpose: (y, x)
        case .rotate90: (h - 1 - y, x)
        case .transverse: (h - 1 - y, w - 1 - x)
        case .rotate270: (y, w - 1 - x)
        }
    }

    private func picture(_ w: Int, _ h: Int) -> Image {
        Image(width: w, height: h) { x, y in Pixel(Float(x) / Float(w), Float(y) / Float(h), 0.25, 1) }
    }

    func testEveryOrientationMovesEachPixelWhereEXIFSays() throws {
        for (w, h) in [(7, 5), (300, 260)] {
            let stored = picture(w, h)
            for o in Orientation.allCases {
                let pipeline = Pipeline(chain: CompiledChain(stages: []),
                                        source: .init(size: stored.size, isOpaque: true, isEightBit: false, orientation: o),
                                        bandHeight: 16)
                let upright = try pipeline.render(stored).image
                XCTAssertEqual(upright.size, o.uprightSize(stored.size))
                var wrong = 0
                for y in 0..<h {
                    for x in 0..<w {
                        let (u, v) = shown(o, x, y, w, h)
                        let d = upright[u, v] - stored[x, y]
                        // Whole copies of a float image are 16-bit: equal to 1/65535.
                        if (0..<4).contains(where: { abs(d[$0]) > 1 / 65535 }) { wrong += 1 }
                    }
                }
                XCTAssertEqual(wrong, 0, "\(o) on \(w)×\(h)")
            }
        }
    }

    /// A mirror streams band by band; turns and flips of a tall image keep it whole.
    func testOnlyAMirrorOfATallImageStreams() {
        let size = Size(width: 300, height: 260)
        for o in Orientation.allCases where o != .up {
            let kernel = OrientationKernel(orientation: o, inputSize: size)
            XCTAssertEqual(Pipeline.streams(kernel, inputSize: size, bandHeight: 16), o == .flipHorizontal, "\(o)")
        }
    }

    /// The rectangle read for an upright band is exactly the stored pixels it shows.
    func testStoredRectIsExactlyThePixelsShown() {
        let stored = Size(width: 30, height: 20)
        for o in Orientation.allCases {
            let band = Rect(x: 3, y: 4, width: 9, height: 5)
            let rect = o.storedRect(band, stored: stored)
            XCTAssertEqual(rect.size.area, band.size.area, "\(o)")
            for v in band.y..<band.maxY {
                for u in band.x..<band.maxX {
                    let (x, y) = o.storedPixel(u, v, stored: stored)
                    XCTAssertTrue(x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY, "\(o) (\(u), \(v))")
                }
            }
        }
    }
}
