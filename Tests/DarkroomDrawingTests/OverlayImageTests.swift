@testable import DarkroomCore
import DarkroomDrawing
import XCTest

final class OverlayImageTests: XCTestCase {
    let stamp = DrawingAssets.asset("stamp.png", Image(width: 9, height: 7) { x, y in
        Pixel(Float(x) / 8, 0.3, Float(y) / 6, 0.2 + 0.8 * Float((x + y) % 4) / 3).premultiplied
    })
    var assets: DrawingAssets { DrawingAssets(images: ["stamp.png": stamp, "grey.png": DrawingAssets.asset("grey.png", Image(width: 4, height: 4, fill: Pixel(0.5, 0.5, 0.5, 1)))]) }

    /// Source-over of the asset times the opacity where it is placed, pixel-exact; untouched elsewhere.
    func testDrawsTheImageAtAPointWithOpacity() throws {
        let input = testTexture(30, 20, alpha: true)
        for (text, origin, opacity) in [("overlay_image image=stamp.png at=[4,6] opacity=0.6", (4, 6), Float(0.6)),
                                        ("overlay_image image=stamp.png at=[90%,-10%]", (27, -2), Float(1)),
                                        ("overlay_image image=stamp.png gravity=south_east margin=3", (30 - 9 - 3, 20 - 7 - 3), Float(1)),
                                        ("overlay_image image=stamp.png gravity=north margin=10%", (10, 2), Float(1)),
                                        ("overlay_image image=stamp.png", (0, 0), Float(1))] {
            let out = try draw(text, on: input, assets: assets)
            for y in 0..<20 { for x in 0..<30 {
                let u = x - origin.0, v = y - origin.1
                let under = input[x, y]
                var expected = under
                if u >= 0, v >= 0, u < stamp.size.width, v < stamp.size.height {
                    let top = stamp.pixel(u, v) * opacity
                    expected = top + under * (1 - top[3])
                }
                for c in 0..<4 { XCTAssertEqual(out[x, y][c], expected[c], accuracy: 1e-6, "\(text) at (\(x), \(y))") }
            } }
        }
    }

    /// A tile repeats the image with its phase at `offset`; mirror reflects every other copy.
    func testTilesRepeatAndMirrorFromTheOffset() throws {
        let input = Image(width: 31, height: 23, fill: Pixel(0, 0, 0, 1))
        let repeated = try draw("overlay_image image=stamp.png tile=true offset=[2,3]", on: input, assets: assets)
        let mirrored = try draw("overlay_image image=stamp.png tile=true tile_mode=mirror offset=[2,3]", on: input, assets: assets)
        for (x, y) in [(2, 3), (11, 3), (20, 10), (1, 2), (30, 22)] {
            let u = ((x - 2) % 9 + 9) % 9, v = ((y - 3) % 7 + 7) % 7
            let s = stamp.pixel(u, v)
            XCTAssertEqual(repeated[x, y], s + Pixel(0, 0, 0, 1) * (1 - s[3]), "repeat at (\(x), \(y))")
        }
        // Mirror: the copy right of the first is reflected (column 11 holds column 8, 19 holds 0).
        for (x, y, u, v) in [(11, 3, 8, 0), (19, 3, 0, 0), (2, 10, 0, 6), (2, 16, 0, 0)] {
            let s = stamp.pixel(u, v)
            XCTAssertEqual(mirrored[x, y], s + Pixel(0, 0, 0, 1) * (1 - s[3]), "mirror at (\(x), \(y))")
        }
    }

    /// A rectangle with fit: the drawn size and place follow stretch, inside and cover.
    func testRectangleFits() throws {
        let red = DrawingAssets.asset("red.png", Image(width: 20, height: 10, fill: Pixel(1, 0, 0, 1)))
        let a = DrawingAssets(images: ["red.png": red])
        let input = Image(width: 40, height: 40, fill: Pixel(0, 0, 1, 1))
        func covered(_ text: String) throws -> Rect {
            let out = try draw(text, on: input, assets: a)
            var box: Rect?
            for y in 0..<40 { for x in 0..<40 where out[x, y][0] > 0.5 { box = (box ?? Rect(x: x, y: y, width: 1, height: 1)).union(Rect(x: x, y: y, width: 1, height: 1)) } }
            return box ?? Rect(x: 0, y: 0, width: 0, height: 0)
        }
        XCTAssertEqual(try covered("overlay_image image=red.png rect=[5,5,20,20] fit=stretch"), Rect(x: 5, y: 5, width: 20, height: 20))
        XCTAssertEqual(try covered("overlay_image image=red.png rect=[5,5,20,20] fit=inside"), Rect(x: 5, y: 10, width: 20, height: 10))
        XCTAssertEqual(try covered("overlay_image image=red.png rect=[5,5,20,20] fit=cover"), Rect(x: 5, y: 5, width: 20, height: 20))
        XCTAssertEqual(try covered("overlay_image image=red.png width=50%"), Rect(x: 0, y: 0, width: 20, height: 10))
        XCTAssertEqual(try covered("overlay_image image=red.png height=5 gravity=center"), Rect(x: 15, y: 17, width: 10, height: 5))
    }

    /// The blend key composites with the mode's formula (multiply of an opaque stamp).
    func testBlendModeApplies() throws {
        let input = testTexture(12, 9)
        let out = try draw("overlay_image image=grey.png at=[1,1] blend=multiply", on: input, assets: assets)
        XCTAssertEqual(out[2, 2], BlendMode.multiply.composite(assets.images["grey.png"]!.pixel(1, 1), onto: input[2, 2]))
        XCTAssertEqual(out[8, 8], input[8, 8])
    }

    func testContradictionsAndMissingFilesAreErrorsNamingTheParameter() {
        for (text, message) in [
            ("overlay_image image=nowhere.png", "overlay_image.image: nowhere.png: no such file"),
            ("overlay_image image=stamp.png at=[1,1] gravity=north", "overlay_image: give at or gravity, not both"),
            ("overlay_image image=stamp.png rect=[0,0,5,5] width=3", "overlay_image: rect places and sizes the image: give it without at, gravity, width or height"),
            ("overlay_image image=stamp.png tile=true at=[1,1]", "overlay_image: a tiled image covers the whole image: give its phase with offset, not at, gravity or rect"),
            ("overlay_image image=stamp.png rect=[0,0,5]", "overlay_image.rect: expected a rectangle [x, y, width, height], each in px or %, got [\"0\", \"0\", \"5\"]"),
            ("overlay_image image=stamp.png blend=burn", "overlay_image.blend: expected one of " + BlendMode.names.joined(separator: ", ") + ", got \"burn\""),
        ] {
            XCTAssertThrowsError(try ChainSyntax.parse(text, registry: .shipped, assets: assets), text) { XCTAssertEqual("\($0)", message) }
        }
        XCTAssertThrowsError(try ChainSyntax.parse("overlay_image opacity=0.5", registry: .shipped, assets: assets)) { error in
            XCTAssertTrue("\(error)".contains("needs image"), "\(error)")
        }
    }

    /// A grey stamp keeps a grey image grey; a colour one does not (the encoder acts on it).
    func testGreyFollowsTheStamp() throws {
        let traits = Pipeline.SourceTraits(size: Size(width: 20, height: 20), isOpaque: true, isEightBit: true, isGrey: true)
        for (name, grey) in [("grey.png", true), ("stamp.png", false)] {
            let chain = ChainCompiler.compile(try ChainSyntax.parse("overlay_image image=\(name)", registry: .shipped, assets: assets).resolve(seed: 1))
            XCTAssertEqual(Pipeline(chain: chain, source: traits).outputIsGrey, grey, name)
            XCTAssertFalse(Pipeline(chain: chain, source: traits).outputMayHaveAlpha, name)
        }
    }
}
