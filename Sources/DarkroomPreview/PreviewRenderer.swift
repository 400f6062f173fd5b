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
/// cancels an older render (``Cancellation``): one not started is dropped, one running stops at
/// its next band, and neither places its output.
final class PreviewRenderer: Sendable {
    let runner: JobRunner
    let budget: MemoryBudget
    let limits: Limits
    /// A private folder (mode 0700) for rendered files; removed with the server.
    let scratch: String
    private let lanes = Locked([String: Lane]())

    init(limits: Limits, scratch: String) {
        self.limits = limits
        self.runner = JobRunner(limits: limits, durable: false)
        self.budget = MemoryBudget(total: MemoryLimit.budget(configured: limits.maxMemory).bytes,
                                   resident: { SharedAssets.store.byteCount })
        self.scratch = scratch
    }

    /// One page's renders: a serial queue, the newest edit's number and the renders not yet
    /// ended (each cancelled by a newer edit), the last pictures.
    final class Lane: @unchecked Sendable {
        struct Edits {
            var latest = 0
            var pending = [Int: Cancellation]()
        }
        let queue: DispatchQueue
        let edits = Locked(Edits())
        let results = Locked([Int: Data]())
        /// Renders by edit number, for ``PreviewRenderer/once(page:sequence:render:)``.
        let shared = Locked([Int: Task<Outcome, Never>]())
        var used = Date()
        init(page: String) { queue = DispatchQueue(label: "darkroom.preview.\(page)") }
    }

    enum Outcome: Sendable {
        case rendered(id: Int, report: JobReport, seconds: Double)
        /// A newer edit came first; nothing was kept. `stopped`: the output strips the render
        /// had written when it stopped, of how many (nil if it never started one).
        case superseded(stopped: (strips: Int, of: Int)?)
        /// The chain could not be read (the page checks it first, so rarely seen).
        case invalid(String)
    }

    /// Renders `syntax` (the `process` chain) on `input` with `seed`, as page `page`'s edit
    /// number `sequence`. The PNG is kept for ``picture(page:id:)``.
    /// `quick`: the PNG is written with the fastest settings (an approximate render, never
    /// compared with `process`). `after`: a render to wait for before this one starts (the
    /// edit's approximate render, so that the two do not share the cores); older renders of
    /// the page are cancelled at once all the same.
    func render(page: String, sequence: Int, input: String, syntax: String, seed: UInt64, quick: Bool = false,
                after: Task<Outcome, Never>? = nil) async -> Outcome {
        let lane = lane(for: page)
        let cancellation = Cancellation()
        lane.edits.withLock { edits in
            edits.latest = max(edits.latest, sequence)
            if edits.latest > sequence { cancellation.cancel() }
            for (older, running) in edits.pending where older < sequence { running.cancel() }
            edits.pending[sequence] = cancellation
        }
        if let after { _ = await after.value }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            lane.queue.async { [self] in
                defer { lane.edits.withLock { _ = $0.pending.removeValue(forKey: sequence) } }
                guard !cancellation.isCancelled else { return continuation.resume(returning: .superseded(stopped: nil)) }
                continuation.resume(returning: renderNow(lane: lane, page: page, sequence: sequence, input: input,
                                                         syntax: syntax, seed: seed, quick: quick, cancellation: cancellation))
            }
        }
    }

    /// Page `page`'s render of edit `sequence`, started by `render` if no caller started it
    /// yet: the page's two requests for an edit's approximate picture (its own, and its exact
    /// one, which waits for it) share one render, whichever of them comes first.
    func once(page: String, sequence: Int, render: @escaping @Sendable () async -> Outcome) -> Task<Outcome, Never> {
        lane(for: page).shared.withLock { shared in
            if let started = shared[sequence] { return started }
            let task = Task { await render() }
            shared[sequence] = task
            for old in shared.keys.sorted().dropLast(4) { shared[old] = nil }
            return task
        }
    }

    /// Page `page`'s newest render not yet ended: its edit's number and its output strips
    /// written, of how many (0 of 0 till it starts); nil when none is pending.
    func progress(page: String) -> (sequence: Int, strips: Int, of: Int)? {
        guard let lane = lanes.withLock({ $0[page] }) else { return nil }
        return lane.edits.withLock { edits in
            guard let newest = edits.pending.filter({ !$0.value.isCancelled }).max(by: { $0.key < $1.key }) else { return nil }
            let progress = newest.value.progress
            return (sequence: newest.key, strips: progress.strips, of: progress.of)
        }
    }

    private func renderNow(lane: Lane, page: String, sequence: Int, input: String, syntax: String, seed: UInt64,
                           quick: Bool, cancellation: Cancellation) -> Outcome {
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
        let output = Self.processOutput(path: path, chain: spec, quick: quick)
        let clock = Date()
        guard let report = runner.run(inputPath: input, watchName: "preview", outputs: [output], seed: seed,
                                      budget: budget, cancellation: cancellation) else {
            let stopped = cancellation.progress
            return .superseded(stopped: stopped.of > 0 ? stopped : nil)
        }
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
    /// Makes screen copies one at a time, so that one asked for twice is made once.
    private let screenQueue = DispatchQueue(label: "darkroom.preview.screen")

    /// The screen copy of `input`, made now if it was not yet; nil if the input cannot be read
    /// (the exact render then says why). The page asks for it when it opens an image
    /// (``prepareScreenCopy(of:)``), so the first edit finds it made.
    func screenCopy(of input: String) -> ScreenCopy? {
        if let made = screenCopies.withLock({ $0[input] }) { return made }
        return screenQueue.sync { makeScreenCopy(of: input) }
    }

    /// Starts making the screen copy of `input` in the background.
    func prepareScreenCopy(of input: String) {
        screenQueue.async { [self] in _ = makeScreenCopy(of: input) }
    }

    private func makeScreenCopy(of input: String) -> ScreenCopy? {
        if let made = screenCopies.withLock({ $0[input] }) { return made }
        let path = scratch + "/screen-\(screenCopies.withLock { $0.count }).png"
        guard let spec = try? ChainSyntax.parse("resize width=\(Self.screenSide) height=\(Self.screenSide) fit=inside no_upscale=true",
                                                 registry: .shipped),
              let report = Optional(runner.run(inputPath: input, watchName: "preview", outputs: [Self.processOutput(path: path, chain: spec, quick: true)], seed: 0)),
              report.status == .ok, let out = report.outputs.first, let w = report.input.width, let h = report.input.height
        else { return nil }
        let copy = ScreenCopy(path: path, factor: Double(max(out.width, out.height)) / Double(max(w, h, 1)))
        screenCopies.withLock { $0[input] = copy }
        return copy
    }

    /// The output `darkroom process -o FILE.png` makes with its default options; `quick`: with
    /// PNG's fastest settings instead (zlib level 1, effort 1), for what only the screen shows.
    static func processOutput(path: String, chain: ChainSpec, quick: Bool = false) -> OutputConfig {
        var encoding = OutputEncoding(bitDepth: nil, metadata: .keep)
        if quick {
            encoding.compression = 1
            encoding[.effort] = .integer(1)
        }
        return OutputConfig(pathTemplate: path, format: .png, quality: 90, progressive: false,
                            color: ColorOptions(autoOrient: true, target: .srgb, intent: .perceptual),
                            encoding: encoding, chain: chain)
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
