import DarkroomCodecs
import DarkroomConfig
import DarkroomCore

/// One output made from the input: decode → chain → encode, streamed by the core's
/// pipeline, and nothing else (no files, no report). Everything around it — planning, the
/// memory budget, placement, reporting — stays outside.
enum OutputRendering {
    /// Renders `plan` for `input`; a JPEG, PNG or TIFF into `destination` when given (an open,
    /// empty file: a write it refuses is `write_failed`). Throws a report error with the codec's code, or
    /// `timeout` once `deadline` has passed (the engine checks between strips and in the
    /// decoder's progress callback).
    static func render(input: ImageInput, plan: JobPlan.Output, metadata: ImageMetadata, limits: Limits,
                       deadline: Deadline, executor: StripExecutor,
                       destination: Int32? = nil, thumbnailBox: Int? = nil) throws(ReportError) -> ChainRenderer.Output {
        let output = plan.config
        do throws(CodecError) {
            var options = EncodeOptions(output)
            options.metadata = metadata
            options.destination = destination
            // The renderer sets orientationApplied and convertedToSRGB from its plan.
            return try ChainRenderer.render(
                input, plan: plan.rendering,
                options: options,
                limits: DecodeLimits(maxPixels: limits.maxPixels, maxFileBytes: limits.maxFileBytes),
                executor: executor, deadline: deadline, thumbnailBox: thumbnailBox)
        } catch {
            if error.code == .timeout { throw ReportError.timeout(limits: limits) }
            if error.code == .writeFailed {
                throw ReportError(code: error.code, message: "cannot write \(RawName.display(plan.path)): \(error.message)")
            }
            let message = error.code == .encodeFailed ? "\(RawName.display(plan.path)): \(error.message)" : error.message
            throw ReportError(code: error.code, message: message)
        }
    }
}

extension ReportError {
    /// The job ran past `limits.max_seconds` (`process --max-seconds`).
    static func timeout(limits: Limits) -> ReportError {
        ReportError(code: .timeout, message: "the file took longer than its time limit of \(limits.maxSeconds) s "
                    + "(limits.max_seconds in the config, --max-seconds of darkroom process); raise it if such files are expected")
    }
}
