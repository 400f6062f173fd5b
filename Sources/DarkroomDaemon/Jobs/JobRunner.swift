import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import Foundation

/// Runs one input through its outputs, in one direction: plan from the header (limits checked
/// before any pixel is decoded), reserve the plan's memory, render each output
/// (``OutputRendering``), place it (``OutputPlacement``), and describe it all in the report.
///
/// It writes outputs only: no report file, and the input stays where it is; the daemon and the
/// `process` command decide those. Every failure ends in the report, with the outputs written
/// before it; only an abandoned job (its input is being rewritten) has none.
public struct JobRunner: Sendable {
    public let limits: Limits
    public let executor: StripExecutor
    /// Whether outputs are flushed to disk before they are placed. The preview's renders are
    /// not: they are read back at once and deleted, and a flush would make every edit wait
    /// for the disk. Placing stays atomic either way.
    public let durable: Bool

    public init(limits: Limits, executor: StripExecutor = StripExecutor(), durable: Bool = true) {
        self.limits = limits
        self.executor = executor
        self.durable = durable
    }

    /// What a job makes of its input, besides the input itself.
    struct Spec: Sendable {
        var inputPath: String
        var naming: JobPlan.Naming
        var outputs: [OutputConfig]
        /// Random parameters are drawn with it; nil draws a fresh one (recorded in the report).
        var seed: UInt64?
        /// Nil: outputs replace whatever is at their path (the `process` command).
        var owner: OutputPlacement.Owner?
        var queued: Date?
        var configSHA256: String?
        /// Pictures of the input and each output fitted in this box, made from the rows the
        /// render has anyway and left in the report, unwritten (``ReportThumbnail/pending``).
        var thumbnailBox: Int?
    }

    /// How a job ended.
    enum Outcome {
        case finished(JobReport)
        /// Given up without a report: `shouldAbandon` said so (a writer opened the input).
        case abandoned
    }

    /// Processes the file at `inputPath` once, as `darkroom process` does: opened once (never
    /// blocking; a link the caller named is followed), no lease, no memory budget, outputs replace.
    public func run(inputPath: String, watchName: String, outputs: [OutputConfig], seed: UInt64?) -> JobReport {
        guard let report = run(inputPath: inputPath, watchName: watchName, outputs: outputs, seed: seed,
                               budget: nil, shouldAbandon: { false }) else {
            preconditionFailure("a job that never abandons was abandoned")
        }
        return report
    }

    /// As ``run(inputPath:watchName:outputs:seed:)``, waiting for room in `budget` as the
    /// daemon's jobs do, and given up (nil, outputs not placed) once `cancellation` is
    /// cancelled: between steps, and inside a step at its render's next band. The preview page
    /// cancels a render that a newer edit made stale.
    public func run(inputPath: String, watchName: String, outputs: [OutputConfig], seed: UInt64?,
                    budget: MemoryBudget?, cancellation: Cancellation) -> JobReport? {
        run(inputPath: inputPath, watchName: watchName, outputs: outputs, seed: seed, budget: budget,
            shouldAbandon: { cancellation.isCancelled }, cancellation: cancellation)
    }

    private func run(inputPath: String, watchName: String, outputs: [OutputConfig], seed: UInt64?,
                     budget: MemoryBudget?, shouldAbandon: () -> Bool, cancellation: Cancellation? = nil) -> JobReport? {
        var draft = ReportDraft(watchName: watchName, inputPath: inputPath)
        let input: InputFile
        do throws(InputFile.OpenError) {
            input = try InputFile.open(inputPath, maxBytes: limits.maxFileBytes, lease: false, followLinks: true)
        } catch {
            if case .tooLarge(let size) = error { draft.input.bytes = size }
            return draft.finish(.failed, Self.reportError(for: error, path: inputPath, limits: limits))
        }
        let spec = Spec(inputPath: inputPath,
                        naming: .init(relativePath: FileIO.fileName(of: inputPath), watchName: watchName, mirrorFolders: false),
                        outputs: outputs, seed: seed, owner: nil)
        let outcome = withExtendedLifetime(input) {  // a TIFF is read from its descriptor
            run(input: input.content, sha256: input.sha256, spec: spec, budget: budget, shouldAbandon: shouldAbandon,
                cancellation: cancellation)
        }
        guard case .finished(let report) = outcome else { return nil }
        return report
    }

    /// Processes `input`, the content of `spec.inputPath` opened once. `budget` (the daemon's)
    /// makes the job wait for memory; `shouldAbandon` is asked between steps, `cancellation`
    /// between bands too. `sha256` gives
    /// the input's hash, asked once the job is done (a file read in place is hashed meanwhile,
    /// ``ContentDigest``); a file that could not be hashed fails the job with its read error.
    func run(input: ImageInput, sha256: () throws(FileError) -> String, spec: Spec, budget: MemoryBudget?,
             shouldAbandon: () -> Bool, cancellation: Cancellation? = nil) -> Outcome {
        guard case .finished(var report) = render(input: input, spec: spec, budget: budget, shouldAbandon: shouldAbandon,
                                                  cancellation: cancellation)
        else { return .abandoned }
        do throws(FileError) {
            report.input.sha256 = try sha256()
        } catch {
            report.status = .failed
            report.error = report.error ?? ReportError(code: .io, message: error.description)
        }
        return .finished(report)
    }

    private func render(input: ImageInput, spec: Spec, budget: MemoryBudget?, shouldAbandon: () -> Bool,
                        cancellation: Cancellation?) -> Outcome {
        var draft = ReportDraft(watchName: spec.naming.watchName, inputPath: spec.inputPath, queued: spec.queued,
                                configSHA256: spec.configSHA256)
        draft.input.bytes = input.count
        let format = input.format
        draft.input.format = format?.rawValue
        draft.warn(FormatMismatch.warning(content: format, name: spec.inputPath))

        let plan: JobPlan
        switch self.plan(input: input, spec: spec, draft: &draft) {
        case .plan(let made): plan = made
        case .finished(let report): return .finished(report)
        }

        // Memory: wait for room (the time limit starts once the job may run).
        let pixelEstimates = JobMemoryEstimate.pixelBytes(for: plan, executor: executor)
        let estimate = JobMemoryEstimate.bytes(for: plan, pixelBytes: pixelEstimates)
        if let budget {
            switch budget.reserve(estimate, giveUpWhen: shouldAbandon) {
            case .granted: break
            case .gaveUp: return .abandoned
            case .neverFits:
                return .finished(draft.finish(.failed, ReportError(code: .tooLarge, message:
                    "processing it needs about \(Self.mebibytes(estimate)) of memory at its peak, more than the whole budget "
                    + "(\(Self.mebibytes(budget.total))); raise limits.max_memory (or the unit's MemoryMax=) or lower limits.max_pixels")))
            }
        }
        defer { budget?.release(estimate) }
        let deadline = Deadline.after(seconds: limits.maxSeconds, cancellation: cancellation)

        // Rendering and placing, output by output.
        for (output, estimatedPixels) in zip(plan.outputs, pixelEstimates) {
            if shouldAbandon() { return .abandoned }
            if deadline.hasPassed { return .finished(draft.finish(.failed, .timeout(limits: limits))) }
            do throws(ReportError) {
                let written = try write(output, of: plan, input: input, spec: spec, deadline: deadline,
                                        estimatedPixels: estimatedPixels, into: &draft, shouldAbandon: shouldAbandon)
                if !written { return .abandoned }
            } catch {
                // A cancelled render's error is the cancellation, not the file's.
                if deadline.isCancelled { return .abandoned }
                return .finished(draft.finish(.failed, error))
            }
        }
        return .finished(draft.finish(.ok))
    }

    /// What planning from the header gives: the plan, or the job's report already (a file that
    /// cannot be read or planned, or a watch with nothing to write).
    private enum Planned {
        case plan(JobPlan)
        case finished(JobReport)
    }

    /// Plans the job from the input's header alone.
    private func plan(input: ImageInput, spec: Spec, draft: inout ReportDraft) -> Planned {
        do throws(ReportError) {
            // The metadata blocks come with the header, in the same pass, when an output keeps them.
            // Text placeholders naming EXIF fields need the block too.
            let keepsMetadata = spec.outputs.contains { $0.encoding.metadata != .strip || $0.chain.namesEXIF }
            let header: ImageInfo, metadata: ImageMetadata?
            do throws(CodecError) {
                if keepsMetadata { (header, metadata) = try ImageCodec.readHeader(input) } else { (header, metadata) = (try ImageCodec.readInfo(input), nil) }
            } catch {
                throw ReportError(code: error.code, message: error.message)
            }
            draft.fill(from: header)
            guard !spec.outputs.isEmpty else {
                // Nothing to write: still read every pixel, so a broken file is reported as broken.
                do throws(CodecError) {
                    _ = try ImageCodec.decode(input, limits: DecodeLimits(maxPixels: limits.maxPixels, maxFileBytes: limits.maxFileBytes))
                } catch {
                    throw ReportError(code: error.code, message: error.message)
                }
                return .finished(draft.finish(.skipped))
            }
            var made = try JobPlan.make(header: header, outputs: spec.outputs, naming: spec.naming,
                                        seed: spec.seed ?? Self.freshSeed(), facts: InputFacts.of(inputPath: spec.inputPath, metadata: metadata),
                                        limits: limits, executor: executor)
            if let metadata { made.metadata = metadata }
            return .plan(made)
        } catch {
            return .finished(draft.finish(.failed, error))
        }
    }

    /// Renders one output, places it and adds it to the report; false when the job was
    /// abandoned meanwhile (nothing placed).
    private func write(_ output: JobPlan.Output, of plan: JobPlan, input: ImageInput, spec: Spec, deadline: Deadline,
                       estimatedPixels: Int, into draft: inout ReportDraft, shouldAbandon: () -> Bool) throws(ReportError) -> Bool {
        // A JPEG, PNG or TIFF goes straight into a temporary file next to its place as it is
        // encoded, so the encoded file is never held in memory; WebP and AVIF (encoded whole
        // at the end by their libraries) are encoded in memory.
        var temporary: AtomicFile.Temporary?
        var placedFile = false
        defer { if let temporary { AtomicFile.discard(temporary, placed: placedFile) } }
        if EncodeOptions(output.config).canWriteToDestination {
            temporary = try Self.writing { () throws(FileError) in try AtomicFile.begin(for: output.path) }
        }
        let rendered = try OutputRendering.render(input: input, plan: output, metadata: plan.metadata, limits: limits,
                                                  deadline: deadline, executor: executor, destination: temporary?.descriptor,
                                                  thumbnailBox: spec.thumbnailBox)
        if shouldAbandon() { return false }
        let writeClock = Stopwatch()
        let placed: OutputPlacement.Placed
        if let temporary {
            try Self.writing { () throws(FileError) in
                try AtomicFile.seal(temporary, attribute: spec.owner.map { (OutputPlacement.ownerAttribute, $0.mark) },
                                    target: output.path, durable: durable)
            }
            placed = try OutputPlacement.place(.file(temporary), to: output.path, owner: spec.owner, durable: durable)
            placedFile = true
        } else {
            placed = try OutputPlacement.write(rendered.bytes, to: output.path, owner: spec.owner, durable: durable)
        }
        draft.add(rendered, placed: placed, plan: output, seed: plan.seed, writeSeconds: writeClock.seconds,
                  estimatedPixelBytes: estimatedPixels)
        if let box = spec.thumbnailBox {
            draft.addThumbnails(of: rendered, box: box, placedAt: placed.path)
        }
        return true
    }

    /// The report error for an input that could not be opened and read.
    static func reportError(for error: InputFile.OpenError, path: String, limits: Limits) -> ReportError {
        switch error {
        case .tooLarge(let size):
            ReportError(code: .tooLarge,
                        message: "the file has \(size) bytes, more than limits.max_file_bytes (\(limits.maxFileBytes))")
        case .gone:
            ReportError(code: .io, message: FileError("read", path, errno: ENOENT).description)
        case .notRegularFile:
            ReportError(code: .io, message: "\(RawName.display(path)) is not a regular file")
        case .beingWritten:
            ReportError(code: .io, message: "\(RawName.display(path)) is open for writing")
        case .system(let e):
            ReportError(code: .io, message: e.description)
        }
    }

    /// Runs a file step, its error as the report's `write_failed`.
    private static func writing<T>(_ body: () throws(FileError) -> T) throws(ReportError) -> T {
        do throws(FileError) { return try body() } catch {
            throw ReportError(code: .writeFailed, message: error.description)
        }
    }

    static func mebibytes(_ bytes: Int) -> String { "\(max(1, bytes >> 20)) MiB" }

    /// A seed below 2^53, so that `jq` (which reads numbers as doubles) prints it exactly.
    static func freshSeed() -> UInt64 { UInt64.random(in: 0..<(1 << 53)) }
}
