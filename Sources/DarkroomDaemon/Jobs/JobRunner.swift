import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import Foundation

/// Runs one input through its outputs: read (size limit checked before reading), then for each
/// output a streamed render (pixel limit checked from the header and every pipeline node's size
/// before any pixel is decoded) and an atomic write.
///
/// It writes outputs only: no report file, and the input stays where it is; the daemon and the
/// `process` command decide those. It never throws: every failure ends in the report, with the
/// outputs written before it.
public struct JobRunner: Sendable {
    public let limits: Limits
    public let executor: StripExecutor

    public init(limits: Limits, executor: StripExecutor = StripExecutor()) {
        self.limits = limits
        self.executor = executor
    }

    /// Processes `inputPath`. Random parameters are drawn with `seed`, or with a fresh seed
    /// (recorded in the report) when it is nil.
    public func run(inputPath: String, watchName: String, outputs: [OutputConfig], seed: UInt64?) -> JobReport {
        let started = Date()
        let clock = Stopwatch()
        var input = JobReport.Input(path: inputPath)
        var written = [JobReport.Output]()
        var decodeSeconds = 0.0, encodeSeconds = 0.0

        func report(_ status: JobReport.Status, _ error: ReportError? = nil) -> JobReport {
            let total = clock.seconds
            return JobReport(watch: watchName, input: input, outputs: written,
                             timings: .init(queued: started, started: started,
                                            finished: started.addingTimeInterval(total),
                                            decode: decodeSeconds, encode: encodeSeconds, total: total),
                             status: status, error: error)
        }

        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try FileIO.read(inputPath, maxBytes: limits.maxFileBytes)
        } catch {
            switch error {
            case .tooLarge(let size):
                input.bytes = size
                return report(.failed, ReportError(code: CodecError.Code.tooLarge.rawValue, message:
                    "the file has \(size) bytes, more than limits.max_file_bytes (\(limits.maxFileBytes))"))
            case .system(let e):
                return report(.failed, ReportError(code: CodecError.Code.io.rawValue, message: e.description))
            }
        }
        input.bytes = bytes.count
        input.sha256 = SHA256.hex(bytes)
        input.format = ImageFormat.detect(bytes)?.rawValue
        let decodeLimits = DecodeLimits(maxPixels: limits.maxPixels, maxFileBytes: limits.maxFileBytes)
        let header: ImageInfo
        do throws(CodecError) {
            header = try ImageCodec.readInfo(bytes)
        } catch {
            return report(.failed, ReportError(code: error.code.rawValue, message: error.message))
        }
        input.fill(from: header)

        let jobSeed = seed ?? Self.freshSeed()
        var plans = [(path: String, filters: [ResolvedFilter], chain: CompiledChain)]()
        for output in outputs {
            let path = output.path(forInput: inputPath, watch: watchName)
            do throws(ParameterError) {
                let filters = try output.chain.resolve(seed: jobSeed)
                plans.append((path, filters, ChainCompiler.compile(filters)))
            } catch {
                return report(.failed, ReportError(code: "chain_failed", message: "\(path): \(error.message)"))
            }
        }
        guard !plans.isEmpty else {
            // Nothing to write: still read every pixel, so a broken file is reported as broken.
            do throws(CodecError) {
                _ = try ImageCodec.decode(bytes, limits: decodeLimits)
            } catch {
                return report(.failed, ReportError(code: error.code.rawValue, message: error.message))
            }
            return report(.skipped)
        }

        for (index, (path, filters, chain)) in plans.enumerated() {
            let output = outputs[index]
            let format = ImageFormat(output.format)
            // Each output streams the file again with its own shrink- and crop-on-load.
            let rendered: ChainRenderer.Output
            do throws(CodecError) {
                rendered = try ChainRenderer.render(
                    bytes, header: header, chain: chain,
                    options: EncodeOptions(format: format, quality: output.quality, progressive: output.progressive),
                    limits: decodeLimits, executor: executor)
            } catch {
                let message = error.code == .encodeFailed ? "\(path): \(error.message)" : error.message
                return report(.failed, ReportError(code: error.code.rawValue, message: message))
            }
            decodeSeconds += rendered.stats.decodeSeconds
            input.shrinkOnLoad = min(input.shrinkOnLoad ?? rendered.shrinkOnLoad, rendered.shrinkOnLoad)
            input.warning = input.warning ?? rendered.warning
            let writeClock = Stopwatch()
            do throws(FileError) {
                try AtomicFile.write(rendered.bytes, to: path)
            } catch {
                encodeSeconds += rendered.stats.encodeSeconds + writeClock.seconds
                return report(.failed, ReportError(code: "write_failed", message: error.description))
            }
            encodeSeconds += rendered.stats.encodeSeconds + writeClock.seconds
            written.append(JobReport.Output(
                path: path, format: format.rawValue, width: rendered.size.width, height: rendered.size.height,
                bytes: rendered.bytes.count, chain: filters.map { JobReport.ChainStep($0) }, seed: jobSeed,
                nodes: rendered.stats.nodes.map { .init(filters: $0.names, seconds: $0.seconds, width: $0.size.width, height: $0.size.height) },
                peakPixelBytes: rendered.stats.peakPixelBytes, shrinkOnLoad: rendered.shrinkOnLoad))
        }
        return report(.ok)
    }

    /// A seed below 2^53, so that `jq` (which reads numbers as doubles) prints it exactly.
    static func freshSeed() -> UInt64 { UInt64.random(in: 0..<(1 << 53)) }
}

extension ImageFormat {
    init(_ format: OutputFormat) {
        switch format {
        case .png: self = .png
        case .jpeg: self = .jpeg
        }
    }
}

extension JobReport.Input {
    mutating func fill(from info: ImageInfo) {
        format = info.format.rawValue
        width = info.width
        height = info.height
        colorSpace = info.colorSpace
        orientation = info.orientation
    }
}

extension JobReport.ChainStep {
    /// The report form of a resolved filter.
    init(_ filter: ResolvedFilter, registry: FilterRegistry = .standard) {
        let descriptor = try? registry.descriptor(named: filter.name)
        var parameters = [String: ReportValue]()
        for (name, value) in filter.parameters.entries {
            parameters[name] = ReportValue(value, kind: descriptor?.parameter(named: name)?.kind)
        }
        self.init(filter: filter.name, parameters: parameters, random: filter.parameters.randomNames.sorted())
    }
}
