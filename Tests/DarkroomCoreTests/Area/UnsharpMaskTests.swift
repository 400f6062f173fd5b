import XCTest
@testable import DarkroomCore

final class UnsharpMaskTests: XCTestCase {
    /// The definition: the image plus intensity times its difference from its Gaussian blur,
    /// the blur being `gaussian_blur` at the same radius.
    func testIsTheImagePlusIntensityTimesItsDifferenceFromItsBlur() throws {
        let input = KernelContractTests.input(41, 29)
        for (radius, intensity) in [(1.5, 0.5), (4.0, 2.0)] {
            let sharp = try regionFilter("unsharp_mask radius=\(radius) intensity=\(intensity)").apply(to: input, executor: smallTiles)
            let blurred = try regionFilter("gaussian_blur radius=\(radius)").apply(to: input)
            for i in input.pixels.indices {
                let expected = input.pixels[i] + Float(intensity) * (input.pixels[i] - blurred.pixels[i])
                for c in 0..<3 { XCTAssertEqual(sharp.pixels[i][c], expected[c], accuracy: 1e-5) }
                XCTAssertEqual(sharp.pixels[i][3], min(max(expected[3], 0), 1), accuracy: 1e-5)
            }
        }
    }

    /// A step edge overshoots on both sides (the halo users see), a flat image stays flat and
    /// an opaque one stays exactly opaque.
    func testAnEdgeOvershootsAndFlatOpaqueAreasAreUntouched() throws {
        let step = Image(width: 30, height: 8) { x, _ in x < 15 ? Pixel(0.2, 0.2, 0.2, 1) : Pixel(0.8, 0.8, 0.8, 1) }
        let out = try regionFilter("unsharp_mask radius=2 intensity=1").apply(to: step)
        XCTAssertLessThan(out[14, 4][0], 0.2 - 0.05, "the dark side gets darker at the edge")
        XCTAssertGreaterThan(out[15, 4][0], 0.8 + 0.05, "the light side gets lighter at the edge")
        XCTAssertEqual(out[0, 4][0], 0.2, accuracy: 1e-6)
        XCTAssertEqual(out[29, 4][0], 0.8, accuracy: 1e-6)
        XCTAssertTrue(out.pixels.allSatisfy { $0[3] == 1 })
    }

    func testIdentityValuesAreSkipped() throws {
        for text in ["unsharp_mask intensity=0", "unsharp_mask radius=0"] {
            XCTAssertTrue(ChainCompiler.compile(try ChainSyntax.parse(text).resolve(seed: 1)).stages.isEmpty, text)
        }
    }
}
