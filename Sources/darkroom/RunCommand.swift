import ArgumentParser
import DarkroomDrawing
import DarkroomConfig
import DarkroomDaemon
import Foundation
import Logging

/// `darkroom run`: the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Watch the configured folders and process every image that lands in them.",
        discussion: """
            Without --config, watches ./inbox and writes JPEGs at most 1200 pixels wide to ./outbox, with \
            reports in ./reports. SIGTERM or SIGINT finishes the files in flight and exits 0; \
            SIGHUP reloads the config (an invalid one is logged and the old one kept).
            """
    )

    @Option(name: .shortAndLong, help: "The YAML config file.", completion: .file(extensions: ["yaml", "yml"]))
    var config: String?

    func run() throws {
        // Before anything starts a thread: every thread inherits the mask, so no thread can
        // swallow SIGTERM/SIGINT/SIGHUP before the daemon takes them (see SignalInbox).
        SignalInbox.blockHandledSignals()
        let loaded: DaemonConfig
        do {
            loaded = try config.map { try ConfigLoader.load(path: $0, registry: .shipped, assets: SharedAssets.store) }
                ?? ConfigLoader.defaultConfig(baseDirectory: FileManager.default.currentDirectoryPath)
        } catch {
            printError("\(error)")
            throw ExitCode(78)  // EX_CONFIG: systemd will not restart-loop on a bad config.
        }
        LogSetup.bootstrap(loaded.log)
        let logger = Logger(label: "darkroom")
        for warning in loaded.warnings { logger.warning("\(warning)") }
        // With `cluster:` the node coordinates with others through PostgreSQL; without it, alone.
        let code = loaded.cluster.map {
            ClusterDaemon(config: loaded, configPath: config, cluster: $0, registry: .shipped, logger: logger).run()
        } ?? Daemon(config: loaded, configPath: config, registry: .shipped, logger: logger).run()
        if code != 0 { throw ExitCode(code) }
    }
}
