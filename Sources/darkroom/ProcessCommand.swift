import ArgumentParser
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

    @Option(help: "Output format: png or jpeg.")
    var format: OutputFormat?

    @Option(help: "JPEG quality, 1–100.")
    var quality: Int = 90

    @Flag(help: "Write progressive JPEG.")
    var progressive = false

    @Option(help: "Seed for parameters given as 'random' (default: a fresh one per file, written in the report).")
    var seed: UInt64?

    @Option(help: "Folder to write a JSON report per input into.")
    var reports: String?

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = 100_000_000

    @ArgumentParser.Argument(help: "Input PNG or JPEG files.", completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var inputs: [String]

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be from 1 to 100, got \(quality)") }
        guard !inputs.isEmpty else { throw ValidationError("give at least one input file") }
    }

    func run() throws {
        let spec: ChainSpec
        do { spec = try ChainSyntax.parse(chain) } catch {
            printError("darkroom process: --chain: \(error.message)\n(`darkroom filters` lists every filter and parameter)")
            throw ExitCode(64)  // EX_USAGE
        }
        let runner = JobRunner(limits: Limits(maxPixels: maxPixels, maxFileBytes: Int.max))
        var failures = 0
        for input in inputs {
            let target = try outputTemplate(for: input)
            let out = OutputConfig(pathTemplate: target.path, format: target.format, quality: quality,
                                   progressive: progressive, chain: spec)
            let report = runner.run(inputPath: input, watchName: "process", outputs: [out], seed: seed)
            print(report.summaryLine)
            if report.status != .ok { failures += 1 }
            if let reports { try writeReport(report, for: input, into: reports) }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The output path template and format for one input.
    private func outputTemplate(for input: String) throws -> (path: String, format: OutputFormat) {
        let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
        let asFolder = inputs.count > 1 || output.hasSuffix("/") || (exists && isDirectory.boolValue)
        let inputExt = URL(fileURLWithPath: input).pathExtension.lowercased()
        if asFolder {
            try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: true)
            let fmt = format ?? (inputExt == "png" ? .png : .jpeg)
            return (absolute + "/{stem}." + (fmt == .png ? "png" : "jpg"), fmt)
        }
        let ext = URL(fileURLWithPath: absolute).pathExtension.lowercased()
        guard let fmt = format ?? OutputFormat(fileExtension: ext) else {
            throw ValidationError("-o \(output): cannot tell the format from the extension; use .png or .jpg, or --format")
        }
        return (absolute, fmt)
    }

    private func writeReport(_ report: JobReport, for input: String, into folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = JobReport.fileName(forInput: URL(fileURLWithPath: input).lastPathComponent)
        try AtomicFile.write(Array(try report.jsonData()), to: folder + "/" + name)
    }
}

extension OutputFormat: ExpressibleByArgument {}
