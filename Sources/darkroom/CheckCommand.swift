import ArgumentParser
import Foundation
import DarkroomCodecs
import DarkroomDrawing
import DarkroomConfig
import DarkroomDaemon

/// `darkroom check FILE`: validates a config and prints every error at once.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file without running it.",
        discussion: "Prints every error with its file:line:column, and exits 1 if there is any; warnings (a bare angle of 90 is radians) do not fail the check."
    )

    @ArgumentParser.Argument(help: "The YAML config to check.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    func run() throws {
        do {
            let config = try ConfigLoader.load(path: file, registry: .shipped, assets: SharedAssets.store)
            for warning in config.warnings { printError(warning.description) }
            let outputs = config.watches.reduce(0) { $0 + $1.outputs.count }
            let cluster = config.cluster.map { ", cluster node \($0.node)" } ?? ""
            print("\(file): OK — \(config.watches.count) watch(es), \(outputs) output(s), \(config.workers) worker(s)\(cluster)")
            for watch in config.watches {
                print(TextWrap.lines("  \(watch.name): takes ", watch.include.joined(separator: " ") + " (each read by its content)", indent: 6)
                    .joined(separator: "\n"))
                for output in watch.outputs { print("    → \(output.pathTemplate): \(Self.describe(output))") }
            }
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }

    /// An output's format and the settings that apply to it: in words where options interact
    /// (lossless WebP has no quality), else read from the option table.
    static func describe(_ output: OutputConfig) -> String {
        let e = output.encoding
        switch output.format {
        case .jpeg: return "jpeg, quality \(output.quality)" + (output.progressive ? ", progressive" : "")
        case .png:
            return "png, compression \(e.compression), effort \(e.value(.effort, for: .png)?.integer ?? 2)" + (e.bitDepth.map { ", \($0)-bit" } ?? "")
        case .webp: return "webp, " + (e.lossless ? "lossless" : "quality \(output.quality)") + ", effort \(e.effort)"
            + (e.frames == .first ? ", first frame" : "")
        case .gif: return "gif, \(e.colors) colours, dither \(e.dither)" + (e.frames == .first ? ", first frame" : "")
        case .avif: return "avif, quality \(output.quality), speed \(e.speed), \(e.bitDepth == 10 ? 10 : 8)-bit"
        case .jxl:
            let o = EncodeOptions(format: .jxl, encoding: e)
            if o.losslessJPEG { return "jxl, JPEG inputs transcoded losslessly (lossless_jpeg), effort \(o.jxlEffort)" }
            return "jxl, " + (o.jxlLossless ? "lossless" : "distance \(String(format: "%g", o.jxlDistance))") + ", effort \(o.jxlEffort)"
                + (e.bitDepth.map { ", \($0)-bit" } ?? "")
        case .tiff:
            return "tiff, \(e.tiffCompression.rawValue) compression" + (e.bitDepth.map { ", \($0)-bit" } ?? "") + (e.tiled ? ", tiled" : ", striped")
        default:
            return ([output.format.rawValue] + FormatHelpText.options(of: output.format) { option, _ in
                guard let value = e.value(option, for: output.format) else { return nil }
                return option.name + " " + value.description
            }).joined(separator: ", ")
        }
    }
}
