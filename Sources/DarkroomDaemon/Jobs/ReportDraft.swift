import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import Foundation

/// The report of a job as it goes: what is known of the input, the outputs written so far and
/// the time spent, turned into the finished ``JobReport`` by ``finish(_:_:)`` at whatever
/// point the job ends (the outputs written before a failure stay listed).
struct ReportDraft {
    let watchName: String
    let queued: Date
    /// The daemon's config hash; nil outside the daemon.
    let configSHA256: String?
    let started = Date()
    private let clock = Stopwatch()
    var input: JobReport.Input
    /// The problems forgiven so far, each once, in order; `input.warning` joins them.
    private var warnings = [String]()
    var outputs = [JobReport.Output]()
    var decodeSeconds = 0.0
    var encodeSeconds = 0.0

    init(watchName: String, inputPath: String, queued: Date? = nil, configSHA256: String? = nil) {
        self.watchName = watchName
        self.queued = queued ?? Date()
        self.configSHA256 = configSHA256
        input = JobReport.Input(path: RawName.display(inputPath))
    }

    func finish(_ status: JobReport.Status, _ error: ReportError? = nil) -> JobReport {
        let total = clock.seconds
        return JobReport(watch: watchName, input: input, outputs: outputs,
                         timings: .init(queued: min(queued, started), started: started,
                                        finished: started.addingTimeInterval(total),
                                        decode: decodeSeconds, encode: encodeSeconds, total: total),
                         status: status, error: error, configSHA256: configSHA256)
    }

    /// Adds a problem that was forgiven to the input's `warning` (several are joined by "; ";
    /// one that every output met is listed once).
    mutating func warn(_ text: String?) {
        guard let text, !warnings.contains(text) else { return }
        warnings.append(text)
        input.warning = warnings.joined(separator: "; ")
    }

    /// What the header says of the input, and the problems it shows (a stray byte, an unusable
    /// ICC profile: both are listed).
    mutating func fill(from header: ImageInfo) {
        input.fill(from: header)
        warn(header.warning)
        warn(header.iccWarning)
    }

    /// One output written.
    mutating func add(_ rendered: ChainRenderer.Output, placed: OutputPlacement.Placed, plan: JobPlan.Output,
                      seed: UInt64, writeSeconds: Double, estimatedPixelBytes: Int) {
        decodeSeconds += rendered.stats.decodeSeconds
        encodeSeconds += rendered.stats.encodeSeconds + writeSeconds
        input.shrinkOnLoad = min(input.shrinkOnLoad ?? rendered.shrinkOnLoad, rendered.shrinkOnLoad)
        for warning in rendered.warnings + rendered.metadataWarnings { warn(warning) }
        outputs.append(JobReport.Output(
            path: RawName.display(placed.path), format: plan.config.format.rawValue,
            width: rendered.size.width, height: rendered.size.height, bytes: rendered.byteCount,
            chain: plan.filters.map { JobReport.ChainStep($0) }, seed: seed,
            nodes: rendered.stats.nodes.map { .init(filters: $0.names, seconds: $0.seconds, width: $0.size.width, height: $0.size.height) },
            peakPixelBytes: rendered.stats.peakPixelBytes, shrinkOnLoad: rendered.shrinkOnLoad, conflict: placed.conflict,
            orientationApplied: rendered.orientationApplied, colorConvertedFrom: rendered.colorConvertedFrom,
            estimatedPixelBytes: estimatedPixelBytes))
        outputs[outputs.count - 1].frames = rendered.framesOut
        if let page = rendered.vector {
            let size = page.renderSize ?? Size(width: rendered.size.width, height: rendered.size.height)
            outputs[outputs.count - 1].page = .init(number: page.page, dpi: page.dpi, renderedWidth: size.width,
                                                    renderedHeight: size.height)
        }
    }
}
