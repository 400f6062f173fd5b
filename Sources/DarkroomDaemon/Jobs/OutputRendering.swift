import DarkroomCodecs
import DarkroomConfig
import DarkroomCore

/// One output made from the input's bytes: decode → chain → encode, streamed by the core's
/// pipeline, and nothing else (no files, no report). Everything around it — planning, the
/// memory budget, placement, reporting — stays outside.
enum OutputRendering {
    /// What rendering one output gives back.
    struct Rendered: Sendable {
        var encoded: [UInt8]
        var size: Size
        var stats: RenderStats
        var shrinkOnLoad: Int
        /// Problems forgiven (decoding, colour, encoding) and metadata that could not be carried
        /// (an unreadable EXIF block, say).
        var warnings: [String] = []
        /// The EXIF orientation undone (1: none).
        var orientationApplied: Int
        /// The profile the pixels were converted from to sRGB, if they were.
        var colorConvertedFrom: String?
    }

    /// Renders `plan` for the input `bytes`. Throws a report error with the codec's code, or
    /// `timeout` once `deadline` has passed (the engine checks between strips and in the
    /// decoder's progress callback).
    static func render(input bytes: [UInt8], plan: JobPlan.Output, metadata: ImageMetadata, limits: Limits,
                       deadline: Deadline, executor: StripExecutor) throws(ReportError) -> Rendered {
        let output = plan.config
        do throws(CodecError) {
            var options = EncodeOptions(output)
            options.metadata = metadata
            // The renderer sets orientationApplied and convertedToSRGB from its plan.
            let rendered = try ChainRenderer.render(
                bytes, plan: plan.rendering,
                options: options,
                limits: DecodeLimits(maxPixels: limits.maxPixels, maxFileBytes: limits.maxFileBytes),
                executor: executor, deadline: deadline)
            return Rendered(encoded: rendered.bytes, size: rendered.size, stats: rendered.stats,
                            shrinkOnLoad: rendered.shrinkOnLoad, warnings: rendered.warnings + rendered.metadataWarnings,
                            orientationApplied: rendered.orientationApplied, colorConvertedFrom: rendered.colorConvertedFrom)
        } catch {
            if error.code == .timeout { throw ReportError.timeout(limits: limits) }
            let message = error.code == .encodeFailed ? "\(RawName.display(plan.path)): \(error.message)" : error.message
            throw ReportError(code: error.code.rawValue, message: message)
        }
    }
}

extension ReportError {
    /// The job ran past `limits.max_seconds`.
    static func timeout(limits: Limits) -> ReportError {
        ReportError(code: CodecError.Code.timeout.rawValue, message: "the file took longer than limits.max_seconds "
                    + "(\(limits.maxSeconds) s); raise it if such files are expected")
    }
}
