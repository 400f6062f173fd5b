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
            Example: darkroom process --chain 'resize width=800 | sepia intensity=0.8' a.jpg b.png -o out/
            With one input, -o may name the output file; otherwise it is a folder, and each output \
            is named after its input. The format follows -o's extension, else --format, else the input's.
            """
    )

    @Option(name: .long, help: "Filters separated by '|', each 'name key=value …' (see `darkroom filters`).")
    var chain: String

    @Option(name: .shortAndLong, help: "Output file (one input) or folder.")
    var output: String

    @Option(help: "Output format: jpeg, png, webp, gif, avif or tiff.")
    var format: ImageFormat?

    @Option(help: "JPEG, WebP and AVIF quality, 1–100.")
    var quality: Int = 90

    @Option(help: "Bits per sample: 8 or 16 for PNG and TIFF (default: as the input), 8 or 10 for AVIF (default 8).")
    var bitDepth: Int?

    @Flag(help: "Write progressive JPEG.")
    var progressive = false

    @Flag(help: "Keep the pixels as stored, not turned upright by the EXIF orientation.")
    var noAutoOrient = false

    @Option(help: "srgb: convert from the embedded ICC profile to sRGB; keep: leave the pixels, embed the input's profile.")
    var color: ColorOptions.Target = .srgb

    @Option(help: "ICC rendering intent: perceptual or relative.")
    var intent: ColorOptions.Intent = .perceptual

    @Option(help: "EXIF, XMP and IPTC carried over: keep, strip or copyright (only who made and owns the picture).")
    var metadata: MetadataPolicy.Content = .keep

    @Option(help: "Seed for parameters given as 'random' (default: a fresh one per file, written in the report).")
    var seed: UInt64?

    @Option(help: "Folder to write a JSON report per input into.")
    var reports: String?

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = 100_000_000

    @Option(help: "Files processed at once, as the daemon's `workers` (the strips of each file share the cores).")
    var jobs: Int = 1

    @ArgumentParser.Argument(help: "Input image files (PNG, JPEG, TIFF, WebP, GIF, HEIF, AVIF: read by their content).", completion: .file(extensions: ["png", "jpg", "jpeg", "tif", "tiff", "webp", "gif", "heic", "heif", "avif"]))
    var inputs: [String]

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        guard !inputs.isEmpty else { throw ValidationError("give at least one input file") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 256, got \(jobs)") }
    }

    func run() throws {
        let spec: ChainSpec
        do {
            spec = try ChainSyntax.parse(chain, registry: .shipped,
                                         assets: SharedAssets.store.limited(maxPixels: maxPixels, maxFileBytes: .max))
        } catch {
            printError("darkroom process: --chain: \(error.description)\n(`darkroom filters` lists every filter and parameter)")
            throw ExitCode(64)  // EX_USAGE
        }
        let outputs = try inputs.map { input in
            let target = try outputTemplate(for: input)
            try checkBitDepth(for: target.format)
            return OutputConfig(pathTemplate: target.path, format: target.format, quality: quality,
                                progressive: progressive,
                                color: ColorOptions(autoOrient: !noAutoOrient, target: color, intent: intent),
                                encoding: OutputEncoding(bitDepth: bitDepth, metadata: metadata), chain: spec)
        }
        if let reports { try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true) }
        // As in the daemon: `jobs` files at once, their strips sharing the cores (ComputeSlots).
        let runner = JobRunner(limits: Limits(maxPixels: maxPixels, maxFileBytes: Int.max))
        let progress = ProcessProgress(total: inputs.count)
        let failures = Locked(0)
        let (inputs, seed, reports) = (inputs, seed, reports)
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
    /// `--bit-depth` as the config's `bit_depth` takes it for `format`.
    private func checkBitDepth(for format: ImageFormat) throws {
        guard let bitDepth else { return }
        let depths = format == .avif ? [8, 10] : format == .png || format == .tiff ? [8, 16] : [8]
        guard depths.contains(bitDepth) else {
            throw ValidationError("--bit-depth must be " + depths.map(String.init).joined(separator: " or ")
                                  + " for \(format.rawValue), got \(bitDepth)")
        }
    }

    private func outputTemplate(for input: String) throws -> (path: String, format: ImageFormat) {
        let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
        let asFolder = inputs.count > 1 || output.hasSuffix("/") || (exists && isDirectory.boolValue)
        let inputExt = URL(fileURLWithPath: input).pathExtension.lowercased()
        if asFolder {
            try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: true)
            // As the input where darkroom writes its format (HEIF becomes JPEG), else JPEG.
            let fmt = format ?? ImageFormat.writable(fileExtension: inputExt) ?? .jpeg
            return (absolute + "/{stem}." + fmt.fileExtension, fmt)
        }
        let ext = URL(fileURLWithPath: absolute).pathExtension.lowercased()
        guard let fmt = format ?? ImageFormat.writable(fileExtension: ext) else {
            throw ValidationError("-o \(output): cannot tell the format from the extension; use .jpg, .png, .webp, .gif, .avif or .tif, or --format")
        }
        return (absolute, fmt)
    }

    private static func writeReport(_ report: JobReport, for input: String, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = JobReport.fileName(forInput: URL(fileURLWithPath: input).lastPathComponent)
        try AtomicFile.write(Array(try report.jsonData()), to: folder + "/" + name)
    }
}

/// `--format`: the formats darkroom writes (HEIF is read only).
extension ImageFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = ImageFormat(rawValue: argument.lowercased()), format.isWritable else { return nil }
        self = format
    }

    public static var allValueStrings: [String] { allCases.filter(\.isWritable).map(\.rawValue) }
}
extension ColorOptions.Target: ExpressibleByArgument {}
extension ColorOptions.Intent: ExpressibleByArgument {}
extension MetadataPolicy.Content: ExpressibleByArgument {}
