import Foundation
import XCTest
@testable import DarkroomCore

/// `.cube` LUTs (Adobe's Cube LUT Specification 1.0) and `color_cube`: files written here from the
/// format's description, read back, applied, and compared with ImageMagick's `-hald-clut` and
/// vips `maplut`; malformed files refused with the line at fault.
final class CubeLUTTests: XCTestCase {
    private func lut(_ text: String) throws -> CubeLUT { try CubeLUT(bytes: Array(text.utf8)) }

    private func apply(_ operation: any PointOperation, to colours: [Pixel]) -> [Pixel] {
        var pixels = colours
        pixels.withUnsafeMutableBufferPointer { operation.apply($0.baseAddress!, count: $0.count) }
        return pixels
    }

    /// Colours on no grid: every fraction in a cell, and the corners.
    private let colours: [Pixel] = (0..<300).map { i in
        let f = { (k: Int) in Float((i * k) % 1009) / 1008 }
        return Pixel(f(37), f(101), f(409), 1)
    } + [Pixel(0, 0, 0, 1), Pixel(1, 1, 1, 1), Pixel(1, 0, 0.5, 1)]

    /// Files print entries with six decimals: 5e-7 of rounding per entry.
    private let printed: Float = 2e-6

    func testAnIdentityTableGivesEveryColourBack() throws {
        let table = try lut(CubeText.threeD(size: 17) { $0 })
        XCTAssertEqual(table.title, "test")
        XCTAssertEqual(table.size, 17)
        for interpolation in ColorCube.Interpolation.allCases {
            let out = apply(table.operation(interpolation: interpolation), to: colours)
            for (c, o) in zip(colours, out) {
                XCTAssertLessThan(ImageComparison.distance(c, o), printed, "\(interpolation) at \(c)")
            }
        }
    }

    /// An affine transform is reproduced exactly between grid points by both interpolations (a
    /// mix of corners of an affine map is the map of the mix), on a small grid and a wider domain.
    func testAnAffineTransformIsReproducedBetweenGridPoints() throws {
        let m = { (c: SIMD3<Float>) in SIMD3(0.5 * c.x + 0.3 * c.y + 0.1, 0.8 * c.y + 0.1 * c.z, 0.2 * c.x + 0.6 * c.z + 0.15) }
        let table = try lut(CubeText.threeD(size: 3, domain: (-0.5, 1.5), m))
        XCTAssertEqual(table.domainMin, SIMD3(repeating: -0.5))
        for interpolation in ColorCube.Interpolation.allCases {
            let out = apply(table.operation(interpolation: interpolation), to: colours + [Pixel(-0.3, 1.2, 0.4, 1)])
            for (c, o) in zip(colours + [Pixel(-0.3, 1.2, 0.4, 1)], out) {
                let e = m(SIMD3(c[0], c[1], c[2]))
                XCTAssertLessThan(ImageComparison.distance(Pixel(e.x, e.y, e.z, 1), o), printed, "\(interpolation) at \(c)")
            }
        }
        // Outside the domain, inputs are clamped to it.
        let clamped = apply(table.operation(interpolation: .trilinear), to: [Pixel(-3, 9, 0.5, 1)])[0]
        let e = m(SIMD3(-0.5, 1.5, 0.5))
        XCTAssertLessThan(ImageComparison.distance(Pixel(e.x, e.y, e.z, 1), clamped), printed)
    }

    /// Tetrahedral interpolation of a grey reads the grey diagonal alone; a table that keeps grey
    /// there says so, and a table that tints greys does not.
    func testGreyIsDeclaredOnlyWhenTheTableKeepsIt() throws {
        let curve = try lut(CubeText.threeD(size: 5) { SIMD3(repeating: 0) + $0 * $0 }).operation(interpolation: .tetrahedral)
        XCTAssertTrue(curve.preservesGrey)
        let greys = apply(curve, to: (0...20).map { Pixel(repeating: Float($0) / 20) + Pixel(0, 0, 0, 0) })
        XCTAssertTrue(greys.allSatisfy { $0[0] == $0[1] && $0[1] == $0[2] })
        XCTAssertFalse(try lut(CubeText.threeD(size: 5) { $0 * SIMD3(1, 0.9, 0.8) }).operation(interpolation: .tetrahedral).preservesGrey)
    }

    /// ImageMagick's -hald-clut interpolates a Hald image trilinearly. A Hald image of level L is
    /// the same table as a `.cube` of size L² (red fastest, then green, then blue), laid out
    /// L³ × L³: one table, written both ways, must give the same colours. The Hald travels as a
    /// 16-bit text PPM and the result as a 16-bit PPM (rounding 8e-6 each way), so 1e-4.
    func testTrilinearAgreesWithImageMagickHaldClut() throws {
        let level = 3, size = level * level
        let transform = { (c: SIMD3<Float>) -> SIMD3<Float> in
            // Products of channels, so trilinear and tetrahedral differ (by up to ~3e-3 on this grid).
            SIMD3(c.x * c.y * 0.9 + 0.05 * c.z, (c.y + c.x) / 2 * (0.5 + 0.5 * c.z), c.z.squareRoot() * 0.95)
        }
        let cube = CubeText.threeD(size: size, transform)
        let table = try lut(cube)
        let side = level * level * level
        var hald = ["P3", "\(side) \(side)", "65535"]
        for e in table.entries { hald.append("\(Int((e.x * 65535).rounded())) \(Int((e.y * 65535).rounded())) \(Int((e.z * 65535).rounded()))") }
        let input = Image(width: 17, height: 11) { x, y in
            Pixel(Float((x * 13 + y * 7) % 256) / 255, Float((x * 5 + y * 31) % 256) / 255, Float((x * 29 + y * 3) % 256) / 255, 1)
        }
        let magick = try ExternalTool.convert.run(input, inputFormat: .ppm, outputFormat: .ppm,
                                                  ["$IN", "hald.ppm", "-interpolate", "bilinear", "-hald-clut", "-depth", "16", "$OUT"],
                                                  files: ["hald.ppm": hald.joined(separator: "\n") + "\n"])
        let ours = try ChainCompiler.compile(try ChainSyntax.parse("color_cube file=hald.cube", registry: .standard,
                                                                   assets: Files(["hald.cube": cube])).resolve(seed: 1))
            .run(input, executor: smallTiles).image
        XCTAssertLessThan(ImageComparison.maxDifference(ours, magick, channels: 0..<3), 1e-4)
        let tetrahedral = try ChainCompiler.compile(try ChainSyntax.parse("color_cube file=hald.cube interpolation=tetrahedral",
                                                                          registry: .standard, assets: Files(["hald.cube": cube]))
            .resolve(seed: 1)).run(input, executor: smallTiles).image
        XCTAssertGreaterThan(ImageComparison.maxDifference(tetrahedral, magick, channels: 0..<3), 1e-3,
                             "the comparison tells the two interpolations apart")
    }

    /// vips maplut looks each 8-bit value up in a table image; a `.cube` 1-D table of 256 entries
    /// puts its grid on the same values, so on 8-bit input the two agree to float rounding.
    func testOneDimensionalTableAgreesWithVipsMaplut() throws {
        let curve = { (v: Float) -> Float in 0.1 + 0.8 * v * v * (3 - 2 * v) }
        let cube = CubeText.oneD(size: 256) { SIMD3(repeating: curve($0)) }
        let table = try lut(cube)
        let lutMatrix = "256 1\n" + table.entries.map { "\($0.x)" }.joined(separator: " ") + "\n"
        let input = Image(width: 16, height: 16) { x, y in
            Pixel(Float(x * 16 + y) / 255, Float(255 - x * 16 - y) / 255, Float((x * 37 + y * 11) % 256) / 255, 1)
        }
        let vips = try ExternalTool.vips.run(input, inputFormat: .ppm, outputFormat: .pfm, ["maplut", "$IN", "$OUT", "lut.mat"],
                                             files: ["lut.mat": lutMatrix])
        let ours = try ChainCompiler.compile(try ChainSyntax.parse("color_cube file=curve.cube", registry: .standard,
                                                                   assets: Files(["curve.cube": cube])).resolve(seed: 1))
            .run(input, executor: smallTiles).image
        XCTAssertLessThan(ImageComparison.maxDifference(ours, vips, channels: 0..<3), 1e-5)
    }

    func testInlineTablesAsCIColorCubeHasThem() throws {
        // size 2, RGBA, red fastest: a cube that swaps red and blue and halves alpha where green is 1.
        var data = [Double]()
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { data += [Double(b), Double(g), Double(r), g == 1 ? 0.5 : 1] } } }
        let text = "color_cube size=2 data=[" + data.map { formatNumber($0) }.joined(separator: ",") + "]"
        let filter = try makeFilter(text, as: ColorCubeFilter.self)
        let out = apply(filter.operation, to: [Pixel(0.2, 0.6, 0.9, 1)])[0]
        XCTAssertEqual(out[0], 0.9, accuracy: 1e-6)
        XCTAssertEqual(out[2], 0.2, accuracy: 1e-6)
        XCTAssertEqual(out[3], 1 - 0.5 * 0.6, accuracy: 1e-6)
        XCTAssertFalse(filter.operation.preservesOpacity)
        XCTAssertEqual(buildError("color_cube size=3 data=[0,0,0]"),
                       "color_cube: data: size 3 needs 108 numbers (3³ RGBA colours) or 81 (RGB), got 3")
        XCTAssertEqual(buildError("color_cube"), "color_cube: needs file (a .cube LUT), or size with data (an inline table)")
        XCTAssertEqual(buildError("color_cube size=200"), "color_cube.size: expected an integer from 2 to 128, got \"200\"")
    }

    /// Every malformed file is refused with the line at fault.
    func testMalformedFilesNameTheLine() {
        let good = CubeText.threeD(size: 2) { $0 }.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // good: 1 comment, 2 TITLE, 3 LUT_3D_SIZE 2, 4 blank, 5…12 the eight entries.
        func replacing(_ line: Int, with text: String?) -> String {
            var lines = good
            if let text { lines[line - 1] = text } else { lines.remove(at: line - 1) }
            return lines.joined(separator: "\n")
        }
        let cases: [(String, String)] = [
            (replacing(3, with: "LUT_3D_SIZE 300"), "line 3: LUT_3D_SIZE expects an integer from 2 to 128, got \"300\""),
            (replacing(3, with: "LUT_3D_SIZE 1"), "line 3: LUT_3D_SIZE expects an integer from 2 to 128, got \"1\""),
            (replacing(7, with: "0 1"), "line 7: expected three numbers (red green blue), got \"0 1\""),
            (replacing(8, with: "0 1.5 0"), "line 8: 0 1.5 0 is outside the domain 0 0 0 … 1 1 1 (widen DOMAIN_MIN/DOMAIN_MAX if it is meant)"),
            (replacing(9, with: "0 x 1"), "line 9: expected three numbers (red green blue), got \"0 x 1\""),
            (replacing(12, with: nil), "line 12: the file ends after 7 table lines (from line 5); LUT_3D_SIZE 2 (line 3) needs 8"),
            (good.joined(separator: "\n") + "1 1 1\n", "line 13: more than the 8 table lines LUT_3D_SIZE 2 (line 3) declares"),
            (replacing(3, with: "LUT_3D_SIZ 2"), "line 3: unknown keyword \"LUT_3D_SIZ\" (did you mean \"LUT_3D_SIZE\"?)"),
            (replacing(10, with: "DOMAIN_MAX 2 2 2"), "line 10: DOMAIN_MAX after the table data (keywords come first)"),
            (replacing(2, with: "DOMAIN_MIN 1 0 0"), "line 5: DOMAIN_MIN 1 0 0 must be below DOMAIN_MAX 1 1 1 on every channel"),
            (replacing(3, with: "# no size"), "line 5: table data before LUT_3D_SIZE or LUT_1D_SIZE"),
            ("TITLE \"empty\"\n", "no LUT_3D_SIZE or LUT_1D_SIZE line: not a .cube LUT"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try lut(text), message) { error in
                XCTAssertEqual((error as? ParameterError)?.message, message)
            }
        }
    }

    /// Files for a chain, by name.
    private struct Files: AssetResolver {
        var texts: [String: String]
        init(_ texts: [String: String]) { self.texts = texts }
        func image(at path: String) throws(ParameterError) -> any ImageAsset { throw ParameterError("\(path): no images here") }
        func data(at path: String) throws(ParameterError) -> DataAsset {
            guard let text = texts[path] else { throw ParameterError("\(path): no such file") }
            return DataAsset(identity: AssetIdentity(path: path, sha256: String(text.hashValue, radix: 16)), bytes: Array(text.utf8))
        }
    }
}
