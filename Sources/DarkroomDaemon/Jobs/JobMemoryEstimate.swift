import DarkroomCodecs
import DarkroomCore

/// How much memory a job's pixels need at their peak, known before it starts; the daemon's
/// ``MemoryBudget`` lets jobs start only while their estimates fit together.
///
/// The streaming engine bounds each output's pixel memory from its pipeline graph
/// (``Pipeline/estimatedPeakBytes(executor:)``: bands in flight, line caches, compact copies
/// for random-access nodes), which depends on the image's width and the chain, not its height.
/// Outputs are rendered one after the other, so the job's peak is that of its largest output.
/// A PNG that may be written as a palette adds the rows its encoder keeps, a progressive or
/// Huffman-optimised JPEG libjpeg's coefficient buffer, a WebP or AVIF output its whole picture;
/// a WebP or HEIF/AVIF input adds its decoded image (their libraries decode whole images), a GIF
/// its canvas, a camera RAW libraw's raw and developed images (a quarter of the latter for a
/// half-size decode). An animation adds one frame's worth on each side, whatever its frame count.
enum JobMemoryEstimate {
    static func bytes(for plan: JobPlan, executor: StripExecutor) -> Int {
        bytes(for: plan, pixelBytes: pixelBytes(for: plan, executor: executor))
    }

    /// The job's peak from each output's pipeline part (``pixelBytes(for:executor:)``, computed
    /// once per job: the budget admits the job by it and the report gives it per output).
    static func bytes(for plan: JobPlan, pixelBytes: [Int]) -> Int {
        zip(plan.outputs, pixelBytes).map { output, pixels in
            var options = EncodeOptions(output.config)
            // An animation's frames are rendered one after another through the same pipeline
            // into an animated encoder: its frame and working copies are held, not the frames.
            options.animated = options.rendersFrames(of: plan.header.format, pages: plan.header.pages)
            return pixels
                + ImageEncoder.heldBytes(size: output.pipeline.outputSize, options: options,
                                         traits: output.rendering.outputTraits)
                + ImageDecoder.heldBytes(header: output.rendering.raw.source(plan.header), shrink: output.rendering.shrink)
        }.max() ?? 0
    }

    /// The pipeline's part of every output, in order.
    static func pixelBytes(for plan: JobPlan, executor: StripExecutor) -> [Int] {
        plan.outputs.map { pixelBytes(for: $0, executor: executor) }
    }

    /// The pipeline's part for one output: what its render's `peak_pixel_bytes` can reach.
    static func pixelBytes(for output: JobPlan.Output, executor: StripExecutor) -> Int {
        // The codecs' decoders hand out their 8-bit rows (``ImageDecoder`` is a CompactRowSource).
        output.pipeline.estimatedPeakBytes(executor: executor, compactSource: true)
    }
}
