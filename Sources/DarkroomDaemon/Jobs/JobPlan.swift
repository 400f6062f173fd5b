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
        // A PDF or SVG is checked per output, at its page and DPI.
        guard header.format.isVector || fullSize.area <= limits.maxPixels else {
            throw ReportError(code: .tooLarge, message:
                "the image is \(fullSize) (\(fullSize.area) pixels), more than limits.max_pixels (\(limits.maxPixels))")
        }
        var planned = [Output]()
        for output in outputs {
            let filters: [ResolvedFilter]
            do throws(ParameterError) {
                filters = try output.chain.resolve(seed: seed, facts: facts)
            } catch {
                let path = output.path(forInput: naming.relativePath, watch: naming.watchName, mirrorFolders: naming.mirrorFolders)
                throw ReportError(code: .chainFailed, message: "\(RawName.display(path)): \(error.message)")
            }
            let chain = ChainCompiler.compile(filters)
            for page in try pages(of: output, header: header, limits: limits) {
                let path = NameFit.fitFileName(of: output.path(forInput: naming.relativePath, watch: naming.watchName,
                                                               mirrorFolders: naming.mirrorFolders, page: page.page))
                let rendering = ChainRenderer.plan(chain, header: header, bandHeight: executor.bandHeight,
                                                   autoOrient: output.color.autoOrient, color: output.color,
                                                   raw: RawDecoding(EncodeOptions(output)), page: page)
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
        }
        return JobPlan(header: header, seed: seed, outputs: planned)
    }

    /// The pages of a PDF or SVG input an output draws (`page`, or every one with `pages: all`),
    /// each checked against the pixel limit at its DPI before anything is drawn; one page for
    /// other inputs.
    private static func pages(of output: OutputConfig, header: ImageInfo, limits: Limits) throws(ReportError) -> [VectorPage] {
        let asked = output.encoding.vectorPage
        guard header.format.isVector else { return [asked] }
        let numbers = output.encoding.pages == .all ? Array(1...max(header.pages, 1)) : [asked.page]
        guard asked.page <= header.pages else {
            throw ReportError(code: .chainFailed, message: "page \(asked.page) asked for; the \(header.format.rawValue.uppercased()) has "
                              + (header.pages == 1 ? "one page" : "\(header.pages) pages"))
        }
        return try numbers.map { (number) throws(ReportError) -> VectorPage in
            let page = VectorPage(page: number, dpi: asked.dpi)
            let size = page.pixelSize(in: header)
            guard size.area <= limits.maxPixels else {
                throw ReportError(code: .tooLarge, message: "page \(number) at \(OutputOption.Value.number(asked.dpi)) dpi is \(size) "
                                  + "(\(size.area) pixels), more than limits.max_pixels (\(limits.maxPixels)); lower dpi")
            }
            return page
        }
    }
}
