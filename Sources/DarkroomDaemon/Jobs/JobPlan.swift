import DarkroomCodecs
import DarkroomConfig
import DarkroomCore

/// What a job will do, decided from the input's header before any pixel is decoded: each
/// output's path, resolved filters, compiled chain and pipeline (whose node sizes are checked
/// against `limits.max_pixels` here, so a job is refused before it waits for memory).
struct JobPlan: Sendable {
    /// One output of the job.
    struct Output: Sendable {
        var config: OutputConfig
        var path: String
        var filters: [ResolvedFilter]
        /// The graph the streaming engine will run, sizes fixed, and its shrink-on-load.
        var rendering: ChainRenderer.Plan
        var pipeline: Pipeline { rendering.pipeline }
    }

    var header: ImageInfo
    /// The input's EXIF, XMP and IPTC, read once for every output.
    var metadata: ImageMetadata = ImageMetadata()
    var seed: UInt64
    var outputs: [Output]

    /// Where each output goes, for the job's input.
    struct Naming: Sendable {
        var relativePath: String
        var watchName: String
        var mirrorFolders: Bool
    }

    /// The plan, or the report error that stops the job before decoding.
    static func make(header: ImageInfo, outputs: [OutputConfig], naming: Naming, seed: UInt64,
                     facts: InputFacts = InputFacts(), limits: Limits, executor: StripExecutor) throws(ReportError) -> JobPlan {
        let fullSize = Size(width: header.width, height: header.height)
        guard fullSize.area <= limits.maxPixels else {
            throw ReportError(code: .tooLarge, message:
                "the image is \(fullSize) (\(fullSize.area) pixels), more than limits.max_pixels (\(limits.maxPixels))")
        }
        var planned = [Output]()
        for output in outputs {
            let path = NameFit.fitFileName(of: output.path(forInput: naming.relativePath, watch: naming.watchName,
                                                           mirrorFolders: naming.mirrorFolders))
            let filters: [ResolvedFilter]
            do throws(ParameterError) {
                filters = try output.chain.resolve(seed: seed, facts: facts)
            } catch {
                throw ReportError(code: .chainFailed, message: "\(RawName.display(path)): \(error.message)")
            }
            let chain = ChainCompiler.compile(filters)
            let rendering = ChainRenderer.plan(chain, header: header, bandHeight: executor.bandHeight,
                                               autoOrient: output.color.autoOrient, color: output.color,
                                               raw: RawDecoding(EncodeOptions(output)))
            // Named by the filters as the config writes them (the pipeline's nodes would say
            // "resize (down)"); the renderer checks its nodes again.
            let stages = zip(rendering.chain.stages.map(\.names), rendering.chain.stageSizes(for: rendering.uprightSize))
            if let (names, size) = (Array(stages) + rendering.pipeline.nodeSizes).first(where: { $0.1.area > limits.maxPixels }) {
                throw ReportError(code: .tooLarge, message:
                    "\(RawName.display(path)): \(names.joined(separator: ", ")) would make a \(size) image, "
                    + "more than limits.max_pixels (\(limits.maxPixels))")
            }
            planned.append(Output(config: output, path: path, filters: filters, rendering: rendering))
        }
        return JobPlan(header: header, seed: seed, outputs: planned)
    }
}
