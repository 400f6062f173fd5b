import ArgumentParser
import DarkroomDrawing
import DarkroomConfig
import DarkroomDaemon
import Foundation

/// The config the read-only commands (`status`, `report`) look at: `--config FILE`, or the
/// built-in one `darkroom run` uses without `--config` (relative to the current folder).
enum ConfigChoice {
    static func load(_ path: String?) throws -> DaemonConfig {
        do {
            return try path.map { try ConfigLoader.load(path: $0, registry: .shipped, assets: SharedAssets.store) }
                ?? ConfigLoader.defaultConfig(baseDirectory: FileManager.default.currentDirectoryPath)
        } catch {
            printError("\(error)")
            throw ExitCode(78)  // EX_CONFIG, as `darkroom run`
        }
    }
}
