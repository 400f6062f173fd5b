import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import DarkroomDaemon
import DarkroomDrawing
import Foundation

/// Renders a chain on an image through the daemon's own job (``JobRunner``), as `darkroom
/// process --chain … --seed … -o out.png` does: same parser, same defaults, same encoder, so
/// the PNG is the one `process` writes, byte for byte. Renders run under the daemon's limits
/// (pixels, file size, time) and its memory budget, one at a time per page; a newer edit
/// makes an older render stale, and a stale render is dropped before it starts or places its
/// output.
final class PreviewRenderer: Sendable {
    let runner: JobRunner
    let budget: MemoryBudget
    let limits: Limits
    /// A private folder (mode 0700) for rendered files; removed with the server.
    let scratch: String
    private let lanes = Locked([String: Lane]())

    init(limits: Limits, scratch: String) {
        self.limits = limits
        self.runner = JobRunner(limits: limits)
        self.budget = MemoryBudget(total: MemoryLimit.budget(configured: limits.maxMemory).bytes,
                                   resident: { SharedAssets.store.byteCount })
        self.scratch = scratch
    }

    /// One page's renders: a serial queue, the newest edit's number, the last pictures.
    final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        let latest = Locked(0)
        let results = Locked([Int: Data]())
        var used = Date()
        init(page: String) { queue = DispatchQueue(label: "darkroom.preview.\(page)") }
    }

    enum Outcome: Sendable {
        case rendered(id: Int, report: JobReport, seconds: Double)
        /// A newer edit came first; nothing was kept.
        case superseded
        /// The chain could not be read (the page checks it first, so rarely seen).
        case invalid(String)
    }

    /// Renders `syntax` (the `process` chain) on `input` with `seed`, as page `page`'s edit
    /// number `sequence`. The PNG is kept for ``picture(page:id:)``.
    func render(page: String, sequence: Int, input: String, syntax: String, seed: UInt64) async -> Outcome {
        let lane = lane(for: page)
        lane.latest.withLock { $0 = max($0, sequence) }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            lane.queue.async { [self] in
                let stale = { lane.latest.current > sequence }
                guard !stale() else { return continuation.resume(returning: .superseded) }
                continuation.resume(returning: renderNow(lane: lane, page: page, sequence: sequence, input: input,
                                                         syntax: syntax, seed: seed, stale: stale))
            }
        }
    }

    private func renderNow(lane: Lane, page: String, sequence: Int, input: String, syntax: String, seed: UInt64,
                           stale: () -> Bool) -> Outcome {
        let spec: ChainSpec
        do throws(ParameterError) {
            spec = try ChainSyntax.parse(syntax, registry: .shipped,
                                         assets: SharedAssets.store.limited(maxPixels: limits.maxPixels, maxFileBytes: limits.maxFileBytes))
        } catch {
            return .invalid(error.description)
        }
        let folder = scratch + "/" + Self.safeName(page)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/\(sequence).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = Self.processOutput(path: path, chain: spec)
        let clock = Date()
        guard let report = runner.run(inputPath: input, watchName: "preview", outputs: [output], seed: seed,
                                      budget: budget, shouldAbandon: stale) else { return .superseded }
        let seconds = Date().timeIntervalSince(clock)
        if report.status == .ok, let bytes = FileManager.default.contents(atPath: path) {
            lane.results.withLock { results in
                results[sequence] = bytes
                for old in results.keys.sorted().dropLast(3) { results[old] = nil }
            }
        }
        return .rendered(id: sequence, report: report, seconds: seconds)
    }

    /// The source of approximate renders: the input shrunk to at most ``screenSide`` pixels on
    /// its long side (made once per input, by the same job), and how much smaller it is.
    struct ScreenCopy: Sendable {
        var path: String
        /// Screen copy's long side ÷ the upright input's.
        var factor: Double
    }

    static let screenSide = 1024
    private let screenCopies = Locked([String: ScreenCopy]())

    /// The screen copy of `input`, made now if it was not yet; nil if the input cannot be read
    /// (the exact render then says why).
    func screenCopy(of input: String) -> ScreenCopy? {
        if let made = screenCopies.withLock({ $0[input] }) { return made }
        let path = scratch + "/screen-\(screenCopies.withLock { $0.count }).png"
        guard let spec = try? ChainSyntax.parse("resize width=\(Self.screenSide) height=\(Self.screenSide) fit=inside no_upscale=true",
                                                 registry: .shipped),
              let report = Optional(runner.run(inputPath: input, watchName: "preview", outputs: [Self.processOutput(path: path, chain: spec)], seed: 0)),
              report.status == .ok, let out = report.outputs.first, let w = report.input.width, let h = report.input.height
        else { return nil }
        let copy = ScreenCopy(path: path, factor: Double(max(out.width, out.height)) / Double(max(w, h, 1)))
        screenCopies.withLock { $0[input] = copy }
        return copy
    }

    /// The output `darkroom process -o FILE.png` makes with its default options.
    static func processOutput(path: String, chain: ChainSpec) -> OutputConfig {
        OutputConfig(pathTemplate: path, format: .png, quality: 90, progressive: false,
                     color: ColorOptions(autoOrient: true, target: .srgb, intent: .perceptual),
                     encoding: OutputEncoding(bitDepth: nil, metadata: .keep), chain: chain)
    }

    /// The PNG of page `page`'s render `id`, while it is among the last few.
    func picture(page: String, id: Int) -> Data? {
        lanes.withLock { $0[page] }?.results.withLock { $0[id] }
    }

    private func lane(for page: String) -> Lane {
        lanes.withLock { lanes in
            if let lane = lanes[page] { lane.used = Date(); return lane }
            // A page reloaded many times leaves lanes behind; the least recently used go.
            if lanes.count >= 32, let oldest = lanes.min(by: { $0.value.used < $1.value.used }) { lanes[oldest.key] = nil }
            let lane = Lane(page: page)
            lanes[page] = lane
            return lane
        }
    }

    /// A page id as a file name: letters and digits only.
    static func safeName(_ page: String) -> String {
        let kept = page.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(40)
        return kept.isEmpty ? "page" : String(kept)
    }
}
