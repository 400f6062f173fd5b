@testable import DarkroomCore
import XCTest

/// Images with no pixels (0×N, N×0, 0×0) go through every filter without trapping, and each
/// filter's `outputSize(for:)` agrees with the image `apply` produces.
final class EmptyImageTests: XCTestCase {
    static let chains = [
        "color_controls saturation=0.5 | sepia | hue angle=1 | gamma power=2 | invert",
        "resize width=10", "resize height=10", "resize scale=2", "resize width=10 height=10 fit=cover",
        "resize width=10 height=10 fit=contain", "resize width=10 height=10 fit=stretch",
        "crop x=1 y=1 width=3 height=3", "crop width=50% gravity=center",
        "transform rotate=30deg canvas=grow", "transform scale=2 pivot=center", "transform translate=[3,4] background=red",
        "gaussian_blur radius=2", "convolve kernel=[[0,-1,0],[-1,5,-1],[0,-1,0]]",
        "drop_shadow", "drop_shadow canvas=grow offset=[3,4] blur=2",
    ]

    func testEveryFilterAcceptsEmptyImages() throws {
        for size in [Size(width: 0, height: 5), Size(width: 5, height: 0), Size(width: 0, height: 0)] {
            for text in Self.chains {
                let chain = ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1))
                let out = try chain.run(Image(width: size.width, height: size.height), executor: smallTiles).image
                XCTAssertEqual(out.pixels.count, out.width * out.height, "\(text) on \(size)")
                XCTAssertEqual(chain.outputSize(for: size), out.size, "\(text) on \(size)")
            }
        }
    }
}
