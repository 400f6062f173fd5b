import ArgumentParser
import DarkroomConfig
import DarkroomDaemon
import Foundation

/// `darkroom status`: what the running daemon is doing, from the state file it rewrites every second.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the running daemon is doing: uptime, config, and per watch the files queued, in flight, done and failed.",
        discussion: """
            Reads the state file the daemon rewrites at most once a second: `state_file:` in the \
            config, else /run/darkroom/status.json under the packaged unit ($RUNTIME_DIRECTORY), \
            else a file named after the config in $XDG_RUNTIME_DIR or /tmp. Exits 0 when the daemon \
            runs, 3 when it does not (as `systemctl status`).
            """
    )

    @Option(name: .shortAndLong, help: "The daemon's YAML config (default: the built-in one, as `darkroom run`).",
            completion: .file(extensions: ["yaml", "yml"]))
    var config: String?

    @Flag(help: "Print the state file's JSON, with \"running\" checked against the process table.")
    var json = false

    /// LSB's "program is not running", which `systemctl status` also uses.
    static let notRunning: Int32 = 3

    func run() throws {
        let loaded = try ConfigChoice.load(config)
        if loaded.cluster != nil, let config, !json { ClusterCommand.Status.printCluster(config) }
        let candidates = StateFileLocation.candidates(configured: loaded.stateFile, configPath: loaded.sourcePath,
                                                      workingDirectory: FileManager.default.currentDirectoryPath)
        guard let (file, state) = Self.find(candidates, configPath: config == nil ? nil : loaded.sourcePath) else {
            printError("darkroom is not running: no state file at \(candidates.joined(separator: " or "))."
                + " Start it with `darkroom run` or `systemctl start darkroom`; if it runs with another config, pass it with --config.")
            throw ExitCode(Self.notRunning)
        }
        var shown = state
        let alive = state.running && ProcessIdentity.isAlive(pid: state.pid, startTicks: state.processStartTicks)
        shown.running = alive
        if json {
            print(String(decoding: try shown.jsonData(), as: UTF8.self), terminator: "")
        } else {
            print(StatusText.render(shown, file: file, wasRunning: state.running), terminator: "")
        }
        if !alive { throw ExitCode(Self.notRunning) }
    }

    /// The first candidate that holds a state file (of the daemon running `configPath`, when given).
    static func find(_ candidates: [String], configPath: String?) -> (String, DaemonState)? {
        for file in candidates {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            guard let state = try? DaemonState.decode(data) else {
                printError("warning: \(file) is not a darkroom state file; skipped")
                continue
            }
            if let configPath, candidates.count > 1, state.config.path != configPath { continue }
            return (file, state)
        }
        return nil
    }
}
