import ArgumentParser
import DarkroomDrawing
import DarkroomCodecs
import DarkroomConfig
import DarkroomCore
import DarkroomDaemon
import Foundation

/// `darkroom process`: the daemon's engine, once, over files named on the command line.
struct ProcessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Run a filter chain over image files once.",
        discussion: """
            Example: darkroom process --chain 'resize width=800 | sepia' *.jpg -o out/
            With one input, -o may name the output file; otherwise it is a folder, and each output \
            is named after its input. The format follows -o's extension, else --format, else the input's.


            """ + OutputOptionFlags.help
    )

    @Option(name: .long, help: "Filters separated by '|', each 'name key=value …' (see `darkroom filters`); none: the image is converted as it is.")
    var chain: String = ""

    @Option(name: .shortAndLong, help: "Output file (one input) or folder.")
    var output: String

    @Option(help: "Output format: \(ImageFormat.writableList).")
    var format: ImageFormat?

    @Flag(help: "Keep the pixels as stored, not turned upright by the EXIF orientation.")
    var noAutoOrient = false

    @Option(help: "srgb: convert from the embedded ICC profile to sRGB; keep: leave the pixels, embed the input's profile.")
    var color: ColorOptions.Target = .srgb

    @Option(help: "ICC rendering intent: perceptual or relative.")
    var intent: ColorOptions.Intent = .perceptual

    @Option(help: "Seed for parameters given as 'random' (default: a fresh one per file, written in the report).")
    var seed: UInt64?

    @Option(help: "Folder to write a JSON report per input into.")
    var reports: String?

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = 100_000_000

    @Option(help: "Seconds one file may take before it is abandoned and reported as timeout (the daemon's limits.max_seconds).")
    var maxSeconds: Double = Limits().maxSeconds

    @Option(help: "Files processed at once, as the daemon's `workers` (the strips of each file share the cores).")
    var jobs: Int = 1

    @ArgumentParser.Argument(parsing: .allUnrecognized,
                             help: "Input image files (\(ImageFormat.readableList): read by their content), and output options (below).",
                             completion: .file(extensions: ImageFormat.allCases.flatMap(\.fileExtensions)))
    var arguments: [String] = []

    func validate() throws {
        guard try !OutputOptionFlags(arguments).inputs.isEmpty else { throw ValidationError("give at least one input file") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 256, got \(jobs)") }
        guard maxSeconds >= 0.001 && maxSeconds <= 86_400 else {
            throw ValidationError("--max-seconds must be from 0.001 to 86400 (a day), got \(maxSeconds)")
        }
    }

    func run() throws {
        let spec: ChainSpec
        do {
            spec = chain.allSatisfy(\.isWhitespace) ? ChainSpec([], registry: .shipped)
                : try ChainSyntax.parse(chain, registry: .shipped,
                                        assets: SharedAssets.store.limited(maxPixels: maxPixels, maxFileBytes: .max))
        } catch {
            printError("darkroom process: --chain: \(error.description)\n(`darkroom filters` lists every filter and parameter)")
            throw ExitCode(64)  // EX_USAGE
        }
        for warning in ChainSyntax.bareAngleWarnings(chain, registry: .shipped) {
            printError("darkroom process: warning: --chain \(warning)")
        }
        let flags = try OutputOptionFlags(arguments)
        let inputs = flags.inputs
        let targets = try inputs.map { try outputTemplate(for: $0, several: inputs.count > 1) }
        let encodings = try flags.encodings(for: targets.map(\.format))
        if zip(targets, encodings).contains(where: { EncodeOptions(format: $0.format, encoding: $1).losslessJPEG }),
           let problem = JPEGTranscoding.chainProblem(filters: spec.steps.map(\.name)) {
            printError("darkroom process: \(problem)")
            throw ExitCode(64)  // EX_USAGE
        }
        let outputs = try zip(targets, encodings).map { target, encoding in
            OutputConfig(pathTemplate: try Self.numberingPages(target.path, encoding), format: target.format,
                         color: ColorOptions(autoOrient: !noAutoOrient, target: color, intent: intent),
                         encoding: encoding, chain: spec)
        }
        if let reports { try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true) }
        // As in the daemon: `jobs` files at once, their strips sharing the cores (ComputeSlots).
        let runner = JobRunner(limits: Limits(maxPixels: maxPixels, maxFileBytes: Int.max, maxSeconds: maxSeconds))
        let progress = ProcessProgress(total: inputs.count)
        let failures = Locked(0)
        let (seed, reports) = (seed, reports)
        let queue = JobQueue<Int>(capacity: inputs.count, workers: jobs) { index in
            let input = inputs[index]
            progress.started(index, name: URL(fileURLWithPath: input).lastPathComponent)
            let report = runner.run(inputPath: input, watchName: "process", outputs: [outputs[index]], seed: seed)
            var failed = report.status != .ok
            if let reports {
                do { try Self.writeReport(report, for: input, into: reports) } catch {
                    printError("darkroom process: \(input): cannot write its report: \(error)")
                    failed = true
                }
            }
            if failed { failures.withLock { $0 += 1 } }
            progress.finished(index, failed: failed, line: report.summaryLine)
        }
        for index in inputs.indices { _ = queue.submit(index, key: String(index)) }
        while !queue.waitForRunning(upTo: 0.25) { progress.tick() }
        progress.finish()
        if failures.current > 0 { throw ExitCode(1) }
    }

    /// The output path template and format for one input.
    private func outputTemplate(for input: String, several: Bool) throws -> (path: String, format: ImageFormat) {
        let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
        let asFolder = several || output.hasSuffix("/") || (exists && isDirectory.boolValue)
        let inputExt = URL(fileURLWithPath: input).pathExtension.lowercased()
        if asFolder {
            try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: true)
            // As the input where darkroom writes its format (HEIF becomes JPEG), else JPEG.
            let fmt = format ?? ImageFormat.writable(fileExtension: inputExt) ?? .jpeg
            return (absolute + "/{stem}." + fmt.fileExtension, fmt)
        }
        let ext = URL(fileURLWithPath: absolute).pathExtension.lowercased()
        guard let fmt = format ?? ImageFormat.writable(fileExtension: ext) else {
            throw ValidationError("-o \(output): cannot tell the format from the extension; use " + ImageFormat.writableFormats.map { "." + $0.fileExtension }.joined(separator: ", ") + ", or --format")
        }
        return (absolute, fmt)
    }

    /// With `--pages all` each page of a PDF is its own file: a folder's `{stem}.ext` becomes
    /// `{stem}-{page}.ext`; a file named by -o must hold `{page}`.
    private static func numberingPages(_ path: String, _ encoding: OutputEncoding) throws -> String {
        guard encoding.pages == .all, !path.contains("{page}") else { return path }
        if let range = path.range(of: "/{stem}.", options: .backwards) {
            return path.replacingCharacters(in: range, with: "/{stem}-{page}.")
        }
        throw ValidationError("--pages all writes one file per page; put {page} in -o, e.g. out/page-{page}.png")
    }

    private static func writeReport(_ report: JobReport, for input: String, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = JobReport.fileName(forInput: URL(fileURLWithPath: input).lastPathComponent)
        try AtomicFile.write(Array(try report.jsonData()), to: folder + "/" + name)
    }
}

/// `--format`: the formats darkroom writes.
extension ImageFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = ImageFormat(rawValue: argument.lowercased()), format.isWritable else { return nil }
        self = format
    }

    public static var allValueStrings: [String] { writableFormats.map(\.rawValue) }
}
extension ColorOptions.Target: ExpressibleByArgument {}
extension ColorOptions.Intent: ExpressibleByArgument {}
