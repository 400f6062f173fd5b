import DarkroomConfig
import Foundation
import Glibc
import Logging

/// Installs ``StderrLogHandler`` as the process's swift-log backend.
public enum LogSetup {
    /// Shared by every handler, so ``update(_:)`` applies to loggers made before it.
    static let shared = Locked(StderrLogHandler.Settings(level: .info, json: false, journal: false))
    private static let bootstrapped = Locked(false)

    /// Call once, early in `main`; later calls only update the settings.
    public static func bootstrap(_ settings: LogSettings) {
        update(settings)
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, settings: shared) }
    }

    /// Applies new settings (after a config reload).
    public static func update(_ settings: LogSettings) {
        let journal = stderrIsJournal()
        shared.withLock { s in
            s.level = Logger.Level(rawValue: settings.level) ?? .info
            s.json = settings.format == .json
            s.journal = journal
        }
    }

    /// Whether `$JOURNAL_STREAM` (`device:inode`) names the file stderr is.
    static func stderrIsJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(STDERR_FILENO, &st) == 0 else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }
}
