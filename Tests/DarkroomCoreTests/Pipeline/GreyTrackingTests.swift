@testable import DarkroomCore
import XCTest

/// A grey source stays grey through filters that treat R, G and B alike, and becomes colour
/// through those that paint colour (hue turns about the grey axis: grey stays grey) (so the encoder can write one channel exactly when every
/// pixel really has R = G = B; the render check below makes sure of that).
final class GreyTrackingTests: XCTestCase {
    private let size = Size(width: 40, height: 30)

    private func pipeline(_ chain: String, grey: Bool = true) throws -> Pipeline {
        let compiled = chain.isEmpty ? CompiledChain(stages: []) : ChainCompiler.compile(try ChainSyntax.parse(chain).resolve(seed: 1))
        return Pipeline(chain: compiled, source: .init(size: size, isOpaque: false, isEightBit: true, isGrey: grey))
    }

    /// A grey image with alpha: a ramp of grey, alpha falling to 0.4 at the bottom.
    private var greyImage: Image {
        Image(width: size.width, height: size.height) { x, y in
            let v = Float(x) / Float(size.width)
            return Pixel(v, v, v, 1 - 0.6 * Float(y) / Float(size.height)).premultiplied
        }
    }

    /// Whether rendering really gives R = G = B everywhere (within float rounding).
    private func rendersGrey(_ p: Pipeline) throws -> Bool {
        try p.render(greyImage).image.pixels.allSatisfy { abs($0[0] - $0[1]) < 1e-5 && abs($0[1] - $0[2]) < 1e-5 }
    }

    func testGreyPreservingChains() throws {
        for chain in ["gaussian_blur radius=3", "resize width=20", "crop x=2 y=2 width=10 height=10 | resize scale=2",
                      "transform rotate=0.3", "convolve kernel=[[0,-1,0],[-1,5,-1],[0,-1,0]]",
                      "color_controls brightness=0.1 contrast=1.2 saturation=0.5", "gamma power=2 | invert", "hue angle=1",
                      "drop_shadow", "resize width=50 height=50 fit=contain background=gray"] {
            let p = try pipeline(chain)
            XCTAssertTrue(p.outputIsGrey, chain)
            XCTAssertTrue(try rendersGrey(p), "\(chain) was declared grey but renders colour")
        }
    }

    func testColourMakingChains() throws {
        for chain in ["sepia", "resize width=50 height=50 fit=contain background=red",
                      "transform rotate=0.3 background=blue", "drop_shadow color=red", "gaussian_blur | sepia intensity=0.5"] {
            let p = try pipeline(chain)
            XCTAssertFalse(p.outputIsGrey, chain)
            XCTAssertFalse(try rendersGrey(p), "\(chain) was declared colour but renders grey (the test would prove nothing)")
        }
    }

    func testColourSourceIsNeverGrey() throws {
        XCTAssertFalse(try pipeline("", grey: false).outputIsGrey)
        XCTAssertTrue(try pipeline("", grey: true).outputIsGrey)
    }
}
