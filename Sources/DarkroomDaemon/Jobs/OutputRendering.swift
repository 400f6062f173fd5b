import DarkroomCodecs
import DarkroomConfig
import DarkroomCore

/// One output made from the input's bytes: decode → chain → encode, and nothing else (no
/// files, no report). The streaming engine replaces this function's body; everything around
/// it (planning, budget, placement, reporting) stays as it is.
enum OutputRendering {
    /// What rendering one output gives back.
    struct Rendered: Sendable {
        var encoded: [UInt8]
        var size: Size
        var stages: [StageTiming]
        var decodeSeconds: Double
        var encodeSeconds: Double
    }

    /// Renders `plan` for the input `bytes`. Throws a report error with the codec's code, or
    /// `timeout` once `deadline` has passed (checked between steps; the streaming engine checks
    /// between strips and in the codecs' progress callbacks).
    static func render(input bytes: [UInt8], plan: JobPlan.Output, shrink: Int, fullSize: Size,
                       output: OutputConfig, limits: Limits, deadline: Deadline,
                       executor: TileExecutor) throws(ReportError) -> Rendered {
        let decodeClock = Stopwatch()
        let decoded: Image
        do throws(CodecError) {
            decoded = try ImageCodec.decode(bytes, limits: DecodeLimits(maxPixels: limits.maxPixels, maxFileBytes: limits.maxFileBytes),
                                            jpegShrink: shrink).image
        } catch {
            throw ReportError(code: error.code.rawValue, message: error.message)
        }
        let decodeSeconds = decodeClock.seconds
        try checkDeadline(deadline, limits: limits, step: "decoding")
        let chain = plan.chain.forShrunkSource(original: fullSize, shrunk: decoded.size)
        let (image, stages) = chain.run(consume decoded, executor: executor)
        try checkDeadline(deadline, limits: limits, step: "the chain")

        let encodeClock = Stopwatch()
        do throws(CodecError) {
            let encoded = try ImageCodec.encode(image, options: EncodeOptions(
                format: ImageFormat(output.format), quality: output.quality, progressive: output.progressive))
            return Rendered(encoded: encoded, size: image.size, stages: stages,
                            decodeSeconds: decodeSeconds, encodeSeconds: encodeClock.seconds)
        } catch {
            throw ReportError(code: error.code.rawValue, message: "\(RawName.display(plan.path)): \(error.message)")
        }
    }

    private static func checkDeadline(_ deadline: Deadline, limits: Limits, step: String) throws(ReportError) {
        guard deadline.isPast else { return }
        throw ReportError.timeout(limits: limits, during: step)
    }
}

extension ReportError {
    /// The job ran past `limits.max_seconds`.
    static func timeout(limits: Limits, during step: String) -> ReportError {
        ReportError(code: "timeout", message: "stopped during \(step): the file took longer than limits.max_seconds "
                    + "(\(limits.maxSeconds) s); raise it if such files are expected")
    }
}
