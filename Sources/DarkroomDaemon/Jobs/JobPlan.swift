import DarkroomCodecs
import DarkroomConfig
import DarkroomCore

/// What a job will do, decided from the input's header before any pixel is decoded: each
/// output's path, resolved filters and compiled chain, how far the JPEG decoder may shrink,
/// and the size of every stage (checked against `limits.max_pixels`).
struct JobPlan: Sendable {
    /// One output of the job.
    struct Output: Sendable {
        var config: OutputConfig
        var path: String
        var filters: [ResolvedFilter]
        /// Compiled for the full-size source; rendering re-plans it for the decoded size.
        var chain: CompiledChain
        /// The size of each stage's image for the expected decoded source, in order.
        var stageSizes: [Size]
    }

    var header: ImageInfo
    /// The file's own size.
    var fullSize: Size
    /// 1, 2, 4 or 8: JPEG shrink-on-load, as libvips does for thumbnails — when every output
    /// starts by shrinking a lot, decode at 1/2, 1/4 or 1/8 (faster, 4–64× less memory).
    var shrink: Int
    /// The size the decoder is expected to deliver (libjpeg rounds scaled sizes up).
    var sourceSize: Size
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
                     limits: Limits) throws(ReportError) -> JobPlan {
        let fullSize = Size(width: header.width, height: header.height)
        guard fullSize.area <= limits.maxPixels else {
            throw ReportError(code: CodecError.Code.tooLarge.rawValue, message:
                "the image is \(fullSize) (\(fullSize.area) pixels), more than limits.max_pixels (\(limits.maxPixels))")
        }
        var planned = [Output]()
        for output in outputs {
            let path = NameFit.fitFileName(of: output.path(forInput: naming.relativePath, watch: naming.watchName,
                                                           mirrorFolders: naming.mirrorFolders))
            do throws(ParameterError) {
                let filters = try output.chain.resolve(seed: seed)
                planned.append(Output(config: output, path: path, filters: filters,
                                      chain: ChainCompiler.compile(filters), stageSizes: []))
            } catch {
                throw ReportError(code: "chain_failed", message: "\(RawName.display(path)): \(error.message)")
            }
        }
        var shrink = 1
        if header.format == .jpeg, !planned.isEmpty {
            shrink = planned.map { $0.chain.sourceShrinkFactor(for: fullSize) }.min() ?? 1
        }
        let sourceSize = Size(width: (fullSize.width + shrink - 1) / shrink, height: (fullSize.height + shrink - 1) / shrink)
        for index in planned.indices {
            let chain = planned[index].chain.forShrunkSource(original: fullSize, shrunk: sourceSize)
            let sizes = chain.stageSizes(for: sourceSize)
            if let (stage, size) = zip(chain.stages, sizes).first(where: { $0.1.area > limits.maxPixels }) {
                throw ReportError(code: CodecError.Code.tooLarge.rawValue, message:
                    "\(RawName.display(planned[index].path)): \(stage.names.joined(separator: ", ")) would make a \(size) image, "
                    + "more than limits.max_pixels (\(limits.maxPixels))")
            }
            planned[index].stageSizes = sizes
        }
        return JobPlan(header: header, fullSize: fullSize, shrink: shrink, sourceSize: sourceSize, seed: seed, outputs: planned)
    }
}
