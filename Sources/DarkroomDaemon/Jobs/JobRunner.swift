import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import Foundation

/// Runs one input through its outputs: read (size limit checked before reading), decode (pixel
/// limit checked before any pixel is decoded), each chain, encode, atomic write.
///
/// It writes outputs only: no report file, and the input stays where it is; the daemon and the
/// `process` command decide those. It never throws: every failure ends in the report, with the
/// outputs written before it.
public struct JobRunner: Sendable {
    public let limits: Limits
    public let executor: TileExecutor

    public init(limits: Limits, executor: TileExecutor = TileExecutor()) {
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
        let header = try? ImageCodec.readInfo(bytes)
        if let header { input.fill(from: header) }

        // Chains are built before decoding: their first stage says how far the decoder may shrink.
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
        // JPEG shrink-on-load (as libvips does for thumbnails): when every output starts by
        // shrinking a lot, decode at 1/2, 1/4 or 1/8 of the size — faster, and 4–64× less memory.
        let fullSize = header.map { Size(width: $0.width, height: $0.height) }
        var shrink = 1
        if let fullSize, header?.format == .jpeg, !plans.isEmpty {
            shrink = plans.map { $0.chain.sourceShrinkFactor(for: fullSize) }.min() ?? 1
        }

        let decodeClock = Stopwatch()
        // Held as an optional so the last output can take the only reference (see below).
        var source: Image?
        do throws(CodecError) {
            let decoded = try ImageCodec.decode(bytes, limits: DecodeLimits(maxPixels: limits.maxPixels,
                                                                            maxFileBytes: limits.maxFileBytes),
                                                jpegShrink: shrink)
            source = decoded.image
            input.fill(from: decoded.info)
        } catch {
            decodeSeconds = decodeClock.seconds
            return report(.failed, ReportError(code: error.code.rawValue, message: error.message))
        }
        decodeSeconds = decodeClock.seconds
        guard !outputs.isEmpty, let sourceSize = source?.size else { return report(.skipped) }
        input.shrinkOnLoad = shrink
        if let fullSize, sourceSize != fullSize {
            plans = plans.map { ($0.path, $0.filters, $0.chain.forShrunkSource(original: fullSize, shrunk: sourceSize)) }
        }

        for (index, (path, filters, chain)) in plans.enumerated() {
            let output = outputs[index]
            let sizes = zip(chain.stages, chain.stageSizes(for: sourceSize))
            if let (stage, size) = sizes.first(where: { $0.1.area > limits.maxPixels }) {
                return report(.failed, ReportError(code: CodecError.Code.tooLarge.rawValue, message:
                    "\(path): \(stage.names.joined(separator: ", ")) would make a \(size) image, "
                    + "more than limits.max_pixels (\(limits.maxPixels))"))
            }
            // The last output consumes the decoded image, so the chain can free it after its first
            // stage: on a 5000×5000 input that is 400 MB less at the peak.
            let start = index == plans.count - 1 ? source.take()! : source!
            let (image, stages) = chain.run(consume start, executor: executor)

            let encodeClock = Stopwatch()
            let format = ImageFormat(output.format)
            let encoded: [UInt8]
            do throws(CodecError) {
                encoded = try ImageCodec.encode(image, options: EncodeOptions(
                    format: format, quality: output.quality, progressive: output.progressive))
            } catch {
                encodeSeconds += encodeClock.seconds
                return report(.failed, ReportError(code: error.code.rawValue, message: "\(path): \(error.message)"))
            }
            do throws(FileError) {
                try AtomicFile.write(encoded, to: path)
            } catch {
                encodeSeconds += encodeClock.seconds
                return report(.failed, ReportError(code: "write_failed", message: error.description))
            }
            encodeSeconds += encodeClock.seconds
            written.append(JobReport.Output(
                path: path, format: format.rawValue, width: image.width, height: image.height,
                bytes: encoded.count, chain: filters.map { JobReport.ChainStep($0) },
                seed: jobSeed, stages: stages.map { .init(filters: $0.filters, seconds: $0.seconds) }))
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
