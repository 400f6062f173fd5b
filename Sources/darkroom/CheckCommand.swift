import ArgumentParser
import DarkroomConfig

/// `darkroom check FILE`: validates a config and prints every error at once.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file without running it.",
        discussion: "Prints every error with its file:line:column, and exits 1 if there is any."
    )

    @ArgumentParser.Argument(help: "The YAML config to check.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    func run() throws {
        do {
            let config = try ConfigLoader.load(path: file)
            let outputs = config.watches.reduce(0) { $0 + $1.outputs.count }
            let cluster = config.cluster.map { ", cluster node \($0.node)" } ?? ""
            print("\(file): OK — \(config.watches.count) watch(es), \(outputs) output(s), \(config.workers) worker(s)\(cluster)")
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
