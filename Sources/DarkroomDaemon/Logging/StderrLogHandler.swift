import Foundation
import Glibc
import Logging

/// Writes one line per log event to stderr, in text or JSON, each line whole (one `write`).
///
/// When stderr is the journal (`$JOURNAL_STREAM` names the device and inode of stderr), lines
/// start with the syslog priority (`<3>` for errors) so journald records the level, and carry no
/// timestamp (the journal adds its own).
public struct StderrLogHandler: LogHandler {
    public let label: String
    public var metadata: Logger.Metadata = [:]
    private let settings: Locked<Settings>

    /// What every handler of the process shares, so a reload can change level and format.
    struct Settings: Sendable {
        var level: Logger.Level
        var json: Bool
        var journal: Bool
    }

    init(label: String, settings: Locked<Settings>) {
        self.label = label
        self.settings = settings
    }

    public var logLevel: Logger.Level {
        get { settings.current.level }
        // Levels are set per process (config `log.level`), not per logger.
        set { settings.withLock { $0.level = newValue } }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let s = settings.current
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let line = Self.format(level: event.level, message: event.message.description, metadata: merged,
                               label: label, date: Date(), json: s.json, journal: s.journal)
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// One line, without its newline.
    static func format(level: Logger.Level, message: String, metadata: Logger.Metadata, label: String,
                       date: Date, json: Bool, journal: Bool) -> String {
        let prefix = journal ? "<\(syslogPriority(level))>" : ""
        if json {
            var object: [String: String] = ["level": level.rawValue, "message": message, "logger": label]
            if !journal { object["time"] = ISOTime.format(date) }
            for (key, value) in metadata where object[key] == nil { object[key] = value.description }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let text = (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return prefix + text
        }
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let tail = fields.isEmpty ? "" : " [" + fields.joined(separator: " ") + "]"
        let head = journal ? "" : "\(ISOTime.format(date)) \(level.rawValue) "
        // No line breaks inside a line (a file name may hold one): one event, one line.
        let flat = (message + tail).replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " | ")
        return prefix + head + flat
    }

    /// syslog(3) priorities as journald reads them.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
