import Foundation
import Glibc

/// Where the daemon writes its state file, and where `darkroom status` looks for it.
///
/// `state_file:` in the config wins. Without it the daemon writes `$RUNTIME_DIRECTORY/status.json`
/// when systemd gave it a runtime folder (the unit's `RuntimeDirectory=darkroom`, so
/// `/run/darkroom/status.json`), else a file named after the config in `$XDG_RUNTIME_DIR` or
/// `/tmp`, so two daemons with different configs never share one.
public enum StateFileLocation {
    /// The runtime folder the packaged unit asks systemd for.
    public static let serviceFile = "/run/darkroom/status.json"

    /// The file a daemon running `configPath` (nil: the built-in config in `workingDirectory`) writes.
    public static func daemonFile(configured: String?, configPath: String?, workingDirectory: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let configured { return configured }
        if let runtime = runtimeDirectory(environment) { return runtime + "/status.json" }
        return perConfigFile(configPath: configPath, workingDirectory: workingDirectory, environment: environment)
    }

    /// The files `darkroom status` tries, most specific first.
    public static func candidates(configured: String?, configPath: String?, workingDirectory: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let configured { return [configured] }
        var files = [perConfigFile(configPath: configPath, workingDirectory: workingDirectory, environment: environment)]
        if let runtime = runtimeDirectory(environment) { files.append(runtime + "/status.json") }
        files.append(serviceFile)
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }
    }

    /// `$RUNTIME_DIRECTORY` (its first folder when systemd lists several).
    static func runtimeDirectory(_ environment: [String: String]) -> String? {
        guard let value = environment["RUNTIME_DIRECTORY"], !value.isEmpty else { return nil }
        return value.split(separator: ":").first.map(String.init)
    }

    static func perConfigFile(configPath: String?, workingDirectory: String, environment: [String: String]) -> String {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let key = configPath ?? "built-in config in \(workingDirectory)"
        return "\(base)/darkroom-\(getuid())-\(SHA256.hex(key).prefix(12)).status.json"
    }
}
