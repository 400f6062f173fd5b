import DarkroomDrawing
import XCTest
@testable import DarkroomCore

/// What every registered filter must do, point filters included, checked by registration alone:
/// a filter added to ``registry`` is held to all of it without a line of test of its own.
///
/// Image parameters name the in-memory ``TestAssets``, so filters with assets are held to it too.
/// Parameters come from `KernelContractTests.samples(for:)`: the samples a filter needs, and one
/// with every slider drawn at random (fixed seeds, so a failure reproduces). Every check runs the
/// filter through the streaming pipeline, as jobs do.
final class FilterConformanceTests: XCTestCase {
    /// The shipped filters (the drawing ones and the analysis ones — trim, normalise,
    /// auto_levels, equalize — among them) and the test filters that exercise the open point
    /// contract.
    static let registry = pointTestRegistry.adding(FilterRegistry.drawingFilters + [MixWithSourceTestFilter.self])

    struct Sample {
        var text: String
        var filter: ResolvedFilter
        var chain: CompiledChain { CompiledChain(stages: [stage]) }
        /// The filter as a stage, never dropped as an identity (the checks must run it).
        var stage: CompiledChain.Stage {
            switch filter.filter.kind {
            case .point(let point): .point(names: [filter.name], program: PointProgram(point.pointOperations))
            case .analysis(let analysis): .analysis(name: filter.name, filter: analysis)
            case .region(let region): .region(name: filter.name, filter: region)
            }
        }

        /// The input pixels `output` needs: the pixel itself for a point filter; nil for an
        /// analysis filter, which reads the whole input by definition.
        func inputRegion(for output: Rect, inputSize: Size) -> Rect? {
            if filter.filter is any AnalysisFilter { return nil }
            return (filter.filter as? any RegionFilter)?.inputRegion(for: output, inputSize: inputSize) ?? output
        }
    }

    /// Every sample that builds, for every registered filter (each must have one).
    func samples(seed: UInt64) -> [Sample] {
        var out = [Sample]()
        for type in Self.registry.filters {
            let before = out.count
            for text in KernelContractTests.samples(for: type.descriptor) {
                guard let resolved = try? ChainSyntax.parse(text, registry: Self.registry, assets: TestAssets()).resolve(seed: seed),
                      resolved.count == 1 else { continue }
                out.append(Sample(text: text, filter: resolved[0]))
            }
            XCTAssertGreaterThan(out.count, before, "no sample builds \(type.descriptor.name): add one to its descriptor's examples")
        }
        return out
    }

    private func render(_ sample: Sample, _ image: Image, executor: StripExecutor = smallTiles,
                        grey: Bool = false) throws -> (image: Image, stats: RenderStats, pipeline: Pipeline) {
        var traits = Pipeline.traits(of: image)
        traits.isGrey = grey
        // Analysis stages are measured on the image first, as jobs do.
        let chain = try sample.chain.resolvingAnalyses(source: traits, executor: executor) { ImageSource(image, crop: $0) }
        let pipeline = Pipeline(chain: chain, source: traits, bandHeight: executor.bandHeight)
        let (out, stats) = try pipeline.render(image, executor: executor)
        return (out, stats, pipeline)
    }

    /// `darkroom filters` points users at the definition they know: every shipped filter (drawing ones too)
    /// names its Core Image, libvips or Core Graphics counterpart.
    func testEveryShippedFilterNamesItsCounterpart() {
        for d in FilterRegistry.shipped.descriptors {
            XCTAssertFalse((d.counterpart ?? "").isEmpty, "\(d.name) names no counterpart (FilterDescriptor.counterpart)")
        }
    }

    /// `random` works for every numeric and colour parameter of every filter, and a drawn value
    /// lies inside the parameter's hard limits (a draw the config would refuse is a bug).
    func testRandomWorksForEveryNumericAndColourParameter() throws {
        var rng = SeededGenerator(seed: 21)
        for d in Self.registry.descriptors {
            for p in d.parameters where p.kind.isNumeric || p.kind == .color {
                XCTAssertEqual(try? p.parse(.scalar("random")), .random, "\(d.name).\(p.name) refuses random")
                for _ in 0..<20 {
                    let value = p.draw(using: &rng)
                    let raw: RawValue = switch value {
                    case .color(let c): .list([c.r, c.g, c.b, c.a].map { .scalar(String($0)) })
                    default: .scalar(value.description)
                    }
                    XCTAssertNoThrow(try p.parse(raw), "\(d.name).\(p.name) drew \(value), which it refuses")
                }
            }
        }
    }

    /// Identity values (every parameter that declares one, at it) give the input back within
    /// 1/255, even when the compiler does not drop the filter.
    func testIdentityValuesGiveTheInputBack() throws {
        let input = KernelContractTests.input(29, 23)
        var checked = 0
        for type in Self.registry.filters {
            let identities = type.descriptor.parameters.compactMap { p in p.identity.map { (p, $0) } }
            guard !identities.isEmpty else { continue }
            let text = ([type.descriptor.name] + identities.map { "\($0.0.name)=\($0.1)" }).joined(separator: " ")
            guard let resolved = try? ChainSyntax.parse(text, registry: Self.registry, assets: TestAssets()).resolve(seed: 1)
            else { continue }
            let out = try render(Sample(text: text, filter: resolved[0]), input).image
            XCTAssertEqual(out.size, input.size, text)
            guard out.size == input.size else { continue }
            let worst = zip(out.pixels, input.pixels).map { (a: Pixel, b: Pixel) -> Float in
                (0..<4).map { abs(a[$0] - b[$0]) }.max()!
            }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1 / 255, "\(text) changed the image")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 8)
    }

    func testStripHeightsThreadsAndBandHeightsNeverChangeAPixel() throws {
        let input = KernelContractTests.input(47, 35)
        for sample in samples(seed: 7) {
            let reference = try render(sample, input, executor: StripExecutor(bandHeight: 4096, concurrency: 1)).image
            for executor in [StripExecutor(bandHeight: 1, concurrency: 2), StripExecutor(bandHeight: 5, concurrency: 2, readAhead: 0),
                             StripExecutor(bandHeight: 16, concurrency: 3, readAhead: 5)] {
                XCTAssertEqual(try render(sample, input, executor: executor).image, reference,
                               "\(sample.text), band height \(executor.bandHeight), \(executor.concurrency) threads")
            }
        }
    }

    /// Bands cut into column pieces, which threads with no strip of their own render for the
    /// strip in play, give the pixels one thread gives (an image wide enough to be cut: 300
    /// columns make 4 pieces for 2 threads, 4 for 3).
    func testColumnPiecesNeverChangeAPixel() throws {
        let input = KernelContractTests.input(300, 21)
        XCTAssertEqual(PipelineRun.columns(of: Rect(x: 0, y: 0, width: 300, height: 8), threads: 2).count, 4)
        for sample in samples(seed: 7) {
            let reference = try render(sample, input, executor: StripExecutor(bandHeight: 4096, concurrency: 1)).image
            for executor in [StripExecutor(bandHeight: 8, concurrency: 2, stripsInPlay: 1), StripExecutor(bandHeight: 5, concurrency: 3, stripsInPlay: 2)] {
                XCTAssertEqual(try render(sample, input, executor: executor).image, reference,
                               "\(sample.text), band height \(executor.bandHeight), \(executor.concurrency) threads")
            }
        }
    }

    /// Every pixel outside the region a rectangle declares is NaN: a read of one would show.
    func testOnlyTheDeclaredInputRegionIsRead() throws {
        var rng = SeededGenerator(seed: 99)
        for sample in samples(seed: 3) + samples(seed: 4) {
            let size = Size(width: Int.random(in: 19...61, using: &rng), height: Int.random(in: 13...47, using: &rng))
            let input = KernelContractTests.input(size.width, size.height)
            let whole = try render(sample, input).image
            guard whole.width > 0, whole.height > 0 else { continue }
            for _ in 0..<3 {
                let x = Int.random(in: 0..<whole.width, using: &rng), y = Int.random(in: 0..<whole.height, using: &rng)
                let rect = Rect(x: x, y: y, width: Int.random(in: 1...(whole.width - x), using: &rng),
                                height: Int.random(in: 1...(whole.height - y), using: &rng))
                guard let region = sample.inputRegion(for: rect, inputSize: size) else { continue }
                var poisoned = input
                for py in 0..<size.height { for px in 0..<size.width
                    where !(px >= region.x && px < region.maxX && py >= region.y && py < region.maxY) {
                    poisoned[px, py] = Pixel(repeating: .nan)
                } }
                let partial = try render(sample, poisoned).image
                var mismatches = 0
                for py in rect.y..<rect.maxY { for px in rect.x..<rect.maxX where partial[px, py] != whole[px, py] {
                    mismatches += 1
                } }
                XCTAssertEqual(mismatches, 0, "\(sample.text) on \(size): \(rect) read outside its declared region \(region)")
            }
        }
    }

    /// What a filter declares about grey and opacity is what the encoders act on (one colour
    /// channel, no alpha channel), so it must hold on every rendered pixel.
    func testDeclaredGreyAndOpacityHoldOnRenderedPixels() throws {
        let size = Size(width: 31, height: 22)
        let greyAlpha = Image(width: size.width, height: size.height) { x, y in
            let v = Float((x * 7 + y * 3) % 31) / 30
            return Pixel(v, v, v, 1 - 0.5 * Float(y % 5) / 4).premultiplied
        }
        let opaque = KernelContractTests.input(size.width, size.height).map { Pixel($0[0], $0[1], $0[2], 1) }
        for sample in samples(seed: 5) {
            let (grey, _, pipeline) = try render(sample, greyAlpha, grey: true)
            if pipeline.outputIsGrey {
                XCTAssertTrue(grey.pixels.allSatisfy { abs($0[0] - $0[1]) <= 1e-5 && abs($0[1] - $0[2]) <= 1e-5 },
                              "\(sample.text) declares grey output but renders colour")
            }
            let (solid, _, solidPipeline) = try render(sample, opaque)
            if !solidPipeline.outputMayHaveAlpha {
                XCTAssertTrue(solid.pixels.allSatisfy { $0[3] >= 1 - 0.5 / 255 },
                              "\(sample.text) declares an opaque output but renders transparency")
            }
        }
    }

    /// 1×1, 1×N and N×1 images render to the size declared, with no NaN.
    func testOnePixelWideAndHighImages() throws {
        for sample in samples(seed: 11) {
            for size in [Size(width: 1, height: 1), Size(width: 1, height: 17), Size(width: 17, height: 1)] {
                let input = KernelContractTests.input(size.width, size.height)
                let (out, _, pipeline) = try render(sample, input)
                if !sample.chain.hasAnalysis {
                    XCTAssertEqual(out.size, sample.chain.outputSize(for: size), "\(sample.text) on \(size)")
                }
                XCTAssertEqual(out.size, pipeline.outputSize, "\(sample.text) on \(size)")
                XCTAssertFalse(out.pixels.contains { $0.x.isNaN || $0.y.isNaN || $0.z.isNaN || $0.w.isNaN },
                               "\(sample.text) on \(size) made NaN")
            }
        }
    }

    /// The daemon admits a job by the estimate, made before anything is decoded (an analysis
    /// stage as its worst case): a render never holds more than it.
    func testTheMemoryEstimateCoversTheMeasuredPeak() throws {
        let input = KernelContractTests.input(64, 48)
        for sample in samples(seed: 13) {
            for executor in [StripExecutor(bandHeight: 8, concurrency: 2), StripExecutor(bandHeight: 3, concurrency: 3, readAhead: 4),
                             StripExecutor(bandHeight: 5, concurrency: 3, readAhead: 1, stripsInPlay: 2)] {
                let (_, stats, _) = try render(sample, input, executor: executor)
                let planned = Pipeline(chain: sample.chain.worstCase, source: Pipeline.traits(of: input), bandHeight: executor.bandHeight)
                XCTAssertLessThanOrEqual(stats.peakPixelBytes, planned.estimatedPeakBytes(executor: executor),
                                         "\(sample.text), band height \(executor.bandHeight)")
            }
        }
    }
}

private extension Image {
    func map(_ f: (Pixel) -> Pixel) -> Image { Image(width: width, height: height, pixels: pixels.map(f)) }
}
