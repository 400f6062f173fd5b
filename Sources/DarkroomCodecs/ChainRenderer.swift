import DarkroomCore

/// One output of one input, streamed: the file's bytes decoded row by row (with shrink- and
/// crop-on-load when the chain starts by shrinking or cropping), through the chain's pipeline,
/// into the encoder.
///
/// Each output decodes the input again, with its own shrink and crop: a shared decode would
/// have to keep the whole image (or make one output wait for the other), and decoding again at
/// 1/8 for a thumbnail costs little next to the filters.
public enum ChainRenderer {
    /// What a render produced.
    public struct Output: Sendable {
        /// The encoded file; empty when it was written into `options.destination`.
        public var bytes: [UInt8]
        /// The encoded file's length in bytes, wherever it is.
        public var byteCount: Int
        public var size: Size
        public var stats: RenderStats
        /// 1, 2, 4 or 8: the JPEG decoder's DCT shrink; for a camera RAW, 2 is libraw's
        /// half-size decode.
        public var shrinkOnLoad: Int
        /// The part of the decoded image the chain used (a leading crop), if not all.
        public var cropOnLoad: Rect?
        /// Problems forgiven while decoding, converting colour or encoding, in that order, each
        /// once (a stray byte between JPEG segments and an unusable profile are both reported).
        public var warnings: [String]
        /// Metadata that could not be carried into the output (an unreadable EXIF block, say).
        public var metadataWarnings: [String]
        /// The EXIF orientation that was undone (1: the pixels are as stored).
        public var orientationApplied: Int
        /// The profile the pixels were converted from to sRGB; nil when they were not.
        public var colorConvertedFrom: String?
        /// The input's frames (1 for a still image), and how many the output holds.
        public var framesIn: Int = 1
        public var framesOut: Int = 1
        /// A PDF or SVG input: the page drawn, its DPI and the size it was rendered at.
        public var vector: VectorPage?
        /// With a thumbnail box: the input's picture (upright) from the rows decoded, when the
        /// decode was of the whole image; and the output's, from the rows encoded.
        public var inputThumbnail: Image?
        public var outputThumbnail: Image?
    }

    /// How one output will be rendered, fixed before any pixel is decoded.
    public struct Plan: Sendable {
        /// 1, 2, 4 or 8: the JPEG decoder's DCT shrink (2: a camera RAW's half-size decode).
        public var shrink: Int
        /// The size the decoder delivers before any crop-on-load (as stored: not turned).
        public var decodedSize: Size
        /// `decodedSize` turned upright: the size the chain starts from.
        public var uprightSize: Size
        /// How the decoded image is turned upright before the chain.
        public var orientation: Orientation
        /// The chain re-planned for the shrunk source (the same output size).
        public var chain: CompiledChain
        /// The graph for `chain`, its analysis stages (if any) as their worst case: what limits
        /// and the memory estimate are checked on. The render plans the real one once each
        /// statistic is measured.
        public var pipeline: Pipeline
        /// What the decoder delivers.
        public var source: Pipeline.SourceTraits
        public var color: ColorPlan
        /// What the output holds (alpha, grey, the source's depth and palette): the encoder's layout.
        public var outputTraits: OutputTraits
        /// The decoder turns the image upright itself (HEIF, AVIF): outputs' EXIF Orientation is 1.
        public var decoderOrients: Bool = false
        /// The shrink of the preview an analysis pass may be measured on (``StatisticRequest/preview``):
        /// 8 for a JPEG (its DCT scaling makes a 1/8 decode cheap), 1 (none) for other formats.
        public var previewShrink: Int = 1
        /// The input's format and frame count (an animated GIF or WebP has more than one).
        public var sourceFormat: ImageFormat = .png
        public var sourceFrames: Int = 1
        /// How a camera RAW input is developed (or its preview read).
        public var raw = RawDecoding()
        /// A PDF or SVG input: the page, its DPI and the size it is rendered at (a following
        /// resize's picture, drawn at that size rather than shrunk).
        public var vector: VectorPage?
        /// The image as stored, before any shrink-on-load (a PDF's or SVG's: as rendered).
        public var storedSize: Size?
    }

    /// The plan for `chain` on an input whose header is `header`; no pixel is decoded.
    ///
    /// With `autoOrient`, the image is turned upright first (its EXIF orientation) and the
    /// chain's sizes, crops and percentages refer to the upright image. Shrink-on-load is
    /// chosen on the upright size and done by the decoder on the stored image (a DCT shrink
    /// does not care which way up it is). A camera RAW is planned as `raw` develops it (its
    /// preview is a JPEG), and takes libraw's half-size decode when the chain's first stage
    /// reduces it by two or more. A PDF or SVG input is drawn at `page`'s page and DPI, or at the
    /// size the chain's leading resize makes (``CompiledChain/sourceRenderSize(for:)``); other
    /// formats ignore `page`.
    public static func plan(_ chain: CompiledChain, header: ImageInfo, bandHeight: Int = 32, autoOrient: Bool = true,
                            color: ColorOptions = ColorOptions(), raw: RawDecoding = RawDecoding(),
                            page: VectorPage = VectorPage()) -> Plan {
        let header = raw.source(header)
        let orientation = autoOrient ? Orientation(exif: header.orientation) : .up
        let full = header.format.isVector ? page.pixelSize(in: header)
            : orientation.uprightSize(Size(width: header.width, height: header.height))
        let shrink = switch header.format {
        case .jpeg: chain.sourceShrinkFactor(for: full)
        case .raw: chain.sourceReduction(for: full) >= 2 ? 2 : 1
        default: 1
        }
        // libjpeg's 1/k output is ceil(side / k).
        let upright = header.format.isVector ? chain.sourceRenderSize(for: full)
            : Size(width: (full.width + shrink - 1) / shrink, height: (full.height + shrink - 1) / shrink)
        let decoded = orientation.uprightSize(upright)
        let traits = Pipeline.SourceTraits(size: decoded, isOpaque: header.format == .jpeg || !header.hasAlpha,
                                           isEightBit: header.format == .jpeg || header.bitDepth <= 8,
                                           orientation: orientation, isGrey: header.colorSpace == "gray")
        let shrunk = chain.forShrunkSource(original: full, shrunk: upright)
        let pipeline = Pipeline(chain: shrunk.worstCase, source: traits, bandHeight: bandHeight)
        return Plan(shrink: shrink, decodedSize: decoded, uprightSize: upright, orientation: orientation, chain: shrunk,
                    pipeline: pipeline, source: traits, color: ColorPlan(header: header, options: color),
                    outputTraits: outputTraits(pipeline, paletteSource: header.colorSpace == "palette"),
                    decoderOrients: header.orientedByDecoder, previewShrink: header.format == .jpeg ? 8 : 1,
                    sourceFormat: header.format, sourceFrames: header.format.isVector ? 1 : header.pages, raw: raw,
                    vector: header.format.isVector ? VectorPage(page: page.page, dpi: page.dpi, renderSize: upright) : nil,
                    storedSize: header.format.isVector ? decoded : Size(width: header.width, height: header.height))
    }

    private static func outputTraits(_ pipeline: Pipeline, paletteSource: Bool) -> OutputTraits {
        OutputTraits(alpha: pipeline.outputMayHaveAlpha, grey: pipeline.outputIsGrey,
                     sixteenBitSource: !pipeline.traits.isEightBit, paletteSource: paletteSource)
    }

    private static func distinct(_ warnings: [String?]) -> [String] {
        var seen = [String]()
        for case let warning? in warnings where !seen.contains(warning) { seen.append(warning) }
        return seen
    }

    /// Renders a plan made by ``plan(_:header:bandHeight:autoOrient:color:)`` (with `executor`'s
    /// band height); nothing is written anywhere.
    /// - Throws: ``CodecError`` (with code `timeout` when `deadline` passes or is cancelled,
    ///   `too_large` when a node would exceed `limits.maxPixels`).
    public static func render(_ input: [UInt8], plan: Plan, options: EncodeOptions, limits: DecodeLimits,
                              executor: StripExecutor = StripExecutor(),
                              deadline: Deadline? = nil) throws(CodecError) -> Output {
        try render(ImageInput(input), plan: plan, options: options, limits: limits, executor: executor, deadline: deadline)
    }

    /// The same from an input that may be read in place (a TIFF).
    ///
    /// With `thumbnailBox`, the rows going past are also reduced to pictures that fit that box
    /// (``Output/inputThumbnail``, ``Output/outputThumbnail``); an animation gets none.
    public static func render(_ input: ImageInput, plan: Plan, options: EncodeOptions, limits: DecodeLimits,
                              executor: StripExecutor = StripExecutor(),
                              deadline: Deadline? = nil, thumbnailBox: Int? = nil) throws(CodecError) -> Output {
        if options.losslessJPEG { return try JPEGTranscoding.render(input, plan: plan, options: options) }
        let color = plan.color
        func decoder(crop: Rect?, shrink: Int = plan.shrink) throws(CodecError) -> ImageDecoder {
            var options = DecodeOptions(limits: limits, jpegShrink: shrink, crop: crop, deadline: deadline,
                                        convertToSRGB: color.convertToSRGB ? color.intent : nil, raw: plan.raw)
            options.vector = plan.vector ?? VectorPage()
            return try ImageDecoder(input, options: options)
        }
        // An analysis pass that allows it is measured on a 1/8 decode, when that is smaller.
        func preview() throws(CodecError) -> (source: any RowSource, traits: Pipeline.SourceTraits)? {
            guard plan.previewShrink > plan.shrink else { return nil }
            let reduced = try decoder(crop: nil, shrink: plan.previewShrink)
            var traits = plan.source
            traits.size = reduced.size
            return (reduced, traits)
        }
        var plan = plan
        if plan.chain.hasAnalysis {
            // Each statistic costs one more decode of the chain before it (docs/chains.md).
            plan.chain = try rendering { try plan.chain.resolvingAnalyses(source: plan.source, executor: executor, deadline: deadline,
                                                                          makeSource: { try decoder(crop: $0) },
                                                                          makePreview: { try preview() }) }
            plan.pipeline = Pipeline(chain: plan.chain, source: plan.source, bandHeight: executor.bandHeight)
            plan.outputTraits = outputTraits(plan.pipeline, paletteSource: plan.outputTraits.paletteSource)
        }
        let (pipeline, shrink) = (plan.pipeline, plan.shrink)
        if let (names, size) = pipeline.nodeSizes.first(where: { $0.size.area > limits.maxPixels }) {
            throw CodecError(code: .tooLarge, message: "\(names.joined(separator: ", ")) would make a \(size) image, "
                + "more than limits.max_pixels (\(limits.maxPixels))")
        }
        var options = options
        if options.icc == nil { options.icc = color.outputProfile }
        // A grey output cannot carry an RGB profile: the sRGB tag becomes its grey counterpart
        // (in formats that hold one channel; WebP and AVIF are written RGB).
        var traits = plan.outputTraits
        traits.grey = traits.grey && options.format.holdsGrey
        if traits.grey, options.icc == ICCProfile.sRGB { options.icc = ICCProfile.sRGBGrey }
        // The EXIF (and XMP) says what was done to the pixels: turned upright, converted to sRGB.
        options.orientationApplied = options.orientationApplied || plan.orientation != .up || plan.decoderOrients
        if options.rendersFrames(of: plan.sourceFormat, pages: plan.sourceFrames) {
            return try renderFrames(input, plan: plan, options: options, traits: traits, limits: limits, executor: executor,
                                    deadline: deadline)
        }
        let decoder = try decoder(crop: pipeline.sourceCrop)
        guard decoder.size == pipeline.sourceSize else {
            throw CodecError(code: .corrupt, message: "the decoder delivers \(decoder.size), the header promised \(pipeline.sourceSize)")
        }
        options.convertedToSRGB = options.convertedToSRGB || decoder.convertsColor
        var encoder = try ImageEncoder(size: pipeline.outputSize, options: options, traits: traits)
        let stats: RenderStats
        var thumbnails: (input: ThumbnailReducer?, output: ThumbnailReducer)?
        if let box = thumbnailBox {
            // The input's from a decode of the whole image only (a crop-on-load sees part of it).
            var inputSize = ThumbnailReducer.fitted(plan.storedSize ?? decoder.size, box: box)
            if inputSize.width > decoder.size.width || inputSize.height > decoder.size.height {
                inputSize = ThumbnailReducer.fitted(decoder.size, box: box)
            }
            let input = pipeline.sourceCrop == nil ? ThumbnailReducer(sourceSize: decoder.size, size: inputSize) : nil
            let output = ThumbnailReducer(sourceSize: pipeline.outputSize, size: ThumbnailReducer.fitted(pipeline.outputSize, box: box))
            let source: any RowSource = input.map { ReducingSource(decoder, reducer: $0) } ?? decoder
            var sink = ReducingSink(encoder, reducer: output)
            stats = try rendering { try pipeline.run(from: source, into: &sink, executor: executor, deadline: deadline) }
            encoder = sink.inner
            thumbnails = (input, output)
        } else {
            stats = try rendering { try pipeline.run(from: decoder, into: &encoder, executor: executor, deadline: deadline) }
        }
        let bytes = encoder.writesToDestination ? [] : try encoder.finish()
        let byteCount = encoder.writesToDestination ? try encoder.finishFile() : bytes.count
        return Output(bytes: bytes, byteCount: byteCount, size: pipeline.outputSize, stats: stats, shrinkOnLoad: shrink,
                      cropOnLoad: pipeline.sourceCrop, warnings: Self.distinct([decoder.warning, color.warning, encoder.warning]),
                      metadataWarnings: encoder.metadataWarnings, orientationApplied: plan.orientation.rawValue,
                      colorConvertedFrom: decoder.convertsColor ? color.convertedFrom : nil,
                      framesIn: plan.sourceFrames, framesOut: 1, vector: plan.vector,
                      inputThumbnail: thumbnails?.input?.image(orientation: plan.orientation),
                      outputThumbnail: thumbnails?.output.image())
    }

    /// An animation rendered frame by frame: each composed frame through the same pipeline (the
    /// chain's parameters, random draws included, resolved once for the file; analyses measured
    /// on the first frame) into an animated encoder, with its delay; the loop count carried.
    /// One frame is held at a time, on each side.
    private static func renderFrames(_ input: ImageInput, plan: Plan, options: EncodeOptions, traits: OutputTraits,
                                     limits: DecodeLimits, executor: StripExecutor,
                                     deadline: Deadline?) throws(CodecError) -> Output {
        let pipeline = plan.pipeline
        let frames = try AnimationFrames(input, limits: limits, deadline: deadline,
                                         convertToSRGB: plan.color.convertToSRGB ? plan.color.intent : nil)
        guard frames.size == plan.decodedSize else {
            throw CodecError(code: .corrupt, message: "the animation's canvas is \(frames.size), the header promised \(plan.decodedSize)")
        }
        var options = options
        options.animated = true
        options.convertedToSRGB = options.convertedToSRGB || frames.convertsColor
        options.loopCount = frames.loopCount
        var encoder = try ImageEncoder(size: pipeline.outputSize, options: options, traits: traits)
        var stats: RenderStats?
        var count = 0
        while let frame = try frames.next(crop: pipeline.sourceCrop, opaque: plan.source.isOpaque) {
            let run = try rendering { try pipeline.run(from: frame.source, into: &encoder, executor: executor, deadline: deadline) }
            try encoder.endFrame(delay: frame.delay)
            stats = stats.map { $0.adding(run) } ?? run
            count += 1
        }
        guard let stats else { throw CodecError(code: .corrupt, message: "the animation holds no frame") }
        let bytes = encoder.writesToDestination ? [] : try encoder.finish()
        let byteCount = encoder.writesToDestination ? try encoder.finishFile() : bytes.count
        return Output(bytes: bytes, byteCount: byteCount, size: pipeline.outputSize, stats: stats, shrinkOnLoad: 1,
                      cropOnLoad: pipeline.sourceCrop, warnings: Self.distinct([plan.color.warning, encoder.warning]),
                      metadataWarnings: encoder.metadataWarnings, orientationApplied: plan.orientation.rawValue,
                      colorConvertedFrom: frames.convertsColor ? plan.color.convertedFrom : nil, framesIn: frames.count, framesOut: count)
    }

    /// Runs a render step, its errors as codec errors.
    private static func rendering<T>(_ body: () throws -> T) throws(CodecError) -> T {
        do {
            return try body()
        } catch let error as CodecError {
            throw error
        } catch PipelineError.timedOut {
            throw CodecError(code: .timeout, message: "processing ran past the time limit")
        } catch PipelineError.cancelled {
            // No file's fault, so no code of its own: the owner that cancelled knows (Deadline.isCancelled).
            throw CodecError(code: .timeout, message: "the render was cancelled")
        } catch PipelineError.kernelCannotRender(let why) {
            throw CodecError(code: .drawFailed, message: why)
        } catch let error as PipelineError {
            throw CodecError(code: .encodeFailed, message: "\(error)")
        } catch {
            throw CodecError(code: .corrupt, message: "\(error)")
        }
    }
}
