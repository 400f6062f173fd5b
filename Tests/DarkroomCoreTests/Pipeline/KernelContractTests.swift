import DarkroomDrawing
import XCTest
@testable import DarkroomCore

/// The contract every region filter's kernels keep (see ``PixelKernel``), checked for every
/// shipped filter (the drawing ones included) with random parameters, random sizes and random rectangles, so a new
/// filter is covered the day it is registered.
final class KernelContractTests: XCTestCase {
    /// Parameters a filter cannot be built without; every other parameter with a slider range
    /// is drawn at random.
    static let required: [String: [String]] = [
        "resize": ["width=23", "height=17 fit=contain background=#336699", "scale=random", "width=50 height=9 fit=cover",
                   "width=15 height=40 fit=stretch kernel=bicubic", "scale=0.3 kernel=nearest"],
        "convolve": ["kernel=[[-1,-1,-1],[-1,16,-1],[-1,-1,-1]] scale=8", "kernel=[1,2,3,4,5,6,7,8,9,1,2,3,4,5,6,7,8,9,1,2,3,4,5,6,7]"],
        "transform": ["rotate=random", "rotate=30deg canvas=grow background=#ffffff80", "scale=[1.5,0.5] translate=[3,-4]",
                      "shear=[0.3,0.1] pivot=center", "rotate=180deg", "matrix=[-1,0,0,1,0,0]"],
        "pad": ["top=3 left=20% color=#ff000080", "all=2 color=white"],
        "flip": ["direction=vertical"],
        "rotate": ["angle=90deg", "angle=270deg", "angle=30deg background=white"],
        "tile": ["columns=3 rows=2 mode=mirror", "columns=2 rows=3"],
        "nine_slice": ["width=60 height=9 insets=[3,4,2,5]", "width=200% height=150% insets=4 center=tile", "width=5 height=70 insets=[9,9,9,9]"],
        "clip": ["shape=rect x=3 y=2 width=50% height=60% outside=#ff000080", "shape=rounded_rect radius=[2,5,0,8] width=80%",
                 "shape=polygon points=[2,2,30,5,10,25,25,25,5,8] fill_rule=even_odd feather=3", "feather=4 outside=white",
                 "shape=path d=\"M 3 3 L 40 8 Q 20 30 5 20 Z\" fill_rule=even_odd"],
        "draw": ["shapes=[{shape=ellipse, fill=random, stroke=#00ff0080, line_width=3}, {shape=line, points=[0,0,40,30], dash=[4,2]}]",
                 "shapes=[{shape=path, d=\"M 2 2 L 30 5 L 10 25 Z\", fill=white, blend=multiply, opacity=0.5}]",
                 "shapes=[{shape=rounded_rect, x=5, y=3, width=50%, height=20, radius=[1,2,3,4], fill=#ff000080, blend=source_in}]"],
        "fill_pattern": ["size=[6,5] shapes=[{shape=ellipse, fill=random}, {shape=line, points=[0,0,6,5]}] offset=[2,3] opacity=0.7",
                         "image=stamp.png offset=[50%,10%] blend=multiply"],
        "crop": ["x=3 y=5 width=20 height=11", "width=50% height=30% gravity=south_east"],
        "drop_shadow": ["offset=[-5,3] blur=6 canvas=grow", "offset=[40%,-20%] blur=2"],
        "gaussian_blur": ["radius=0.7", "radius=6"],
        "color_cube": ["file=warm.cube", "file=warm.cube interpolation=tetrahedral", "file=curve1d.cube",
                       "file=channels1d.cube", "size=2 data=[0,0,0,1, 1,0,0,1, 0,1,0,0.5, 1,1,0,1, 0,0,1,1, 1,0,1,1, 0,1,1,1, 1,1,1,1]"],
        "curves": ["points=[0,0.1,0.3,0.2,0.7,0.9,1,1] channel=green", "points=[0,0,0.5,0.8,1,1]"],
        "levels": ["black=0.1 white=0.8 gamma=1.4", "black=0.2 channel=blue"],
        "photo_effect": ["style=fade", "style=instant", "style=mono", "style=noir", "style=process", "style=tonal", "style=transfer"],
        "color_matrix": ["r=[0.5,0.3,0.2,0] a=[0,0,0,0.5] bias=[0.1,0,-0.1,0.2]"],
        "overlay_image": ["image=stamp.png at=[3,4] opacity=0.7", "image=grey.png at=[-4,-5]",
                          "image=wide.png at=[50%,90%] opacity=random", "image=stamp.png gravity=south_east margin=2 blend=multiply",
                          "image=stamp.png rect=[2,3,50%,40%] fit=cover", "image=stamp.png width=20 blend=source_in",
                          "image=stamp.png tile=true tile_mode=mirror offset=[5,-3]", "image=wide.png tile=true width=13 offset=[2,2]",
                          "image=logo.svg gravity=center width=60%", "image=logo.svg tile=true height=9 blend=xor"],
        "blend": ["color=#3366cc80 mode=overlay", "color=random mode=hue opacity=random", "color=#ff000040 mode=source_in",
                  "image=stamp.png mode=difference fit=stretch", "image=logo.svg fit=inside mode=destination_atop",
                  "image=grey.png mode=luminosity fit=cover opacity=0.5"],
        "linear_gradient": ["stops=[{at=0, color=red}, {at=1, color=#0000ff80}] start=[10%,20%] end=[90%,70%] extend=reflect",
                            "stops=[{at=0.2, color=random}, {at=0.8, color=white}] blend=multiply opacity=0.7 extend=none",
                            "stops=[{at=0, color=white}] blend=source_in"],
        "radial_gradient": ["stops=[{at=0, color=yellow}, {at=1, color=#00000000}] radius1=40% focus=[30%,30%]",
                            "radius0=3 radius1=12 extend=repeat blend=screen", "radius1=0 blend=destination_in"],
        "draw_text": ["text=Hello size=12 at=[2,3]", "text=\"Ag {stem}\" size=30% gravity=center stroke=black stroke_width=2 color=#ffcc00",
                      "text=\"a long line that wraps\" max_width=50% background=#00000080 padding=3 align=center blend=difference",
                      "text=x size=9 gravity=south_west margin=1 opacity=random blend=destination_out"],
        "group": ["opacity=0.5 chain=[draw shapes=[{shape=ellipse, fill=random}, {shape=rect, x=10%, y=5, width=60%, height=40%, fill=#00ff00c0}]]",
                  "source=image opacity=0.7 blend=multiply chain=[sepia | gaussian_blur radius=2 | invert]",
                  "shadow={offset=[3,-2], blur=2, color=#0000ff80} chain=[overlay_image image=stamp.png at=[3,4] | box_blur radius=1]",
                  "source=image shadow={offset=[-10%,20%], blur=0} chain=[clip shape=ellipse feather=2 | flip direction=vertical]",
                  "blend=source_in chain=[group opacity=0.5 shadow={} chain=[draw shapes=[{shape=line, points=[0,0,40,30]}]] | convolve kernel=[0,1,0,1,1,1,0,1,0] scale=5]",
                  "source=image chain=[transform rotate=30deg | sepia]",
                  // Built where the test filter that reads the chain's source is registered (conformance).
                  "source=image opacity=0.6 chain=[invert | mix_source amount=0.3 | gaussian_blur radius=1]"],
    ]

    /// Parameters held small in the all-random sample: a shadow blurred by sigma 100 grows a
    /// 40-pixel test image to 780², which the debug build takes minutes over.
    static let fixed: [String: String] = ["drop_shadow": "blur=4", "group": "chain=[sepia]"]

    /// Chain texts for `descriptor`: each required sample, and one with every slider drawn.
    static func samples(for descriptor: FilterDescriptor) -> [String] {
        let held = fixed[descriptor.name] ?? ""
        let randomised = descriptor.parameters.filter { $0.randomRange != nil && $0.kind != .color && !held.contains("\($0.name)=") }
            .map { "\($0.name)=random" }.joined(separator: " ") + " " + held
        return (required[descriptor.name] ?? []).map { "\(descriptor.name) \($0)" } + ["\(descriptor.name) \(randomised)"]
    }

    /// Region filters built from every sample that builds (a sample may be refused, e.g. a
    /// random draw of 0 where 0 is not allowed; every filter must still have some).
    func regionFilters(seed: UInt64) throws -> [(String, any RegionFilter)] {
        var out = [(String, any RegionFilter)]()
        for type in FilterRegistry.shipped.filters where !(type is any PointFilter.Type) && !(type is any AnalysisFilter.Type) {
            var built = 0
            for text in Self.samples(for: type.descriptor) {
                guard let resolved = try? ChainSyntax.parse(text, registry: .shipped, assets: TestAssets()).resolve(seed: seed), resolved.count == 1,
                      let filter = resolved[0].filter as? any RegionFilter else { continue }
                out.append((text, filter))
                built += 1
            }
            XCTAssertGreaterThan(built, 0, "no sample builds \(type.descriptor.name): add one to KernelContractTests.required")
        }
        return out
    }

    /// Texture with varying transparency, so premultiplied arithmetic and edges are exercised.
    static func input(_ width: Int, _ height: Int) -> Image {
        var image = TestImage.texture(width: width, height: height)
        for y in 0..<height { for x in 0..<width where (x + 2 * y) % 5 == 0 {
            image[x, y] = image[x, y] * Float(0.25 + 0.15 * Double((x * y) % 4))
        } }
        return image
    }

    // That a rectangle reads only its declared region, and that strips, threads and band heights
    // never change a pixel, is checked for every filter (point filters too) by
    // FilterConformanceTests, through the pipeline as jobs run it.

    /// The `max_pixels` check and every buffer rely on declared sizes: each step's inputs have
    /// the sizes of what feeds them, the plan's output is the filter's output size, and a
    /// render produces exactly that many pixels.
    func testEveryNodeProducesTheSizeItDeclares() throws {
        for (text, filter) in try regionFilters(seed: 11) {
            for size in [Size(width: 1, height: 1), Size(width: 37, height: 5), Size(width: 8, height: 61)] {
                let plan = filter.plan(for: size)
                XCTAssertEqual(plan.outputSize, filter.outputSize(for: size), "\(text) on \(size)")
                for step in plan.steps {
                    for (input, source) in zip(step.kernel.inputs, step.sources) {
                        switch source {
                        case .input: XCTAssertEqual(input.size, size, text)
                        case .step(let i): XCTAssertEqual(input.size, plan.steps[i].kernel.outputSize, text)
                        case .chainSource: break  // no shipped filter reads it (ChainSourceTests)
                        }
                    }
                }
                let image = try filter.apply(to: Self.input(size.width, size.height), executor: smallTiles)
                XCTAssertEqual(image.size, filter.outputSize(for: size), "\(text) on \(size)")
                let pipeline = Pipeline(chain: ChainCompiler.compile([ResolvedFilter(name: text, parameters: .init(), filter: filter)]),
                                        source: Pipeline.traits(of: Self.input(size.width, size.height)))
                XCTAssertEqual(pipeline.outputSize, image.size, text)
            }
        }
    }
}
