import Foundation
import Glibc
import Logging

/// Writes one line per log event to stderr, in text or JSON, each line whole (one `write`).
///
/// When stderr is the journal (`$JOURNAL_STREAM` names the device and inode of stderr), lines
/// start with the syslog priority (`<3>` for errors) so journald records the level, and carry no
/// timestamp (the journal adds its own).
///
/// A line is built from plain strings: no formatter or encoder object per line, nothing shared
/// but the settings behind their lock.
public struct StderrLogHandler: LogHandler {
    public let label: String
    public var metadata: Logger.Metadata = [:]
    private let settings: Locked<Settings>
    /// Set through this handler's ``logLevel``; nil follows the config's `log.level`.
    private var ownLevel: Logger.Level?

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

    /// This handler's level (swift-log: a handler's level is its own): the config's
    /// `log.level`, which a reload changes, until set here.
    public var logLevel: Logger.Level {
        get { ownLevel ?? settings.current.level }
        set { ownLevel = newValue }
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
            let members = object.sorted { $0.key < $1.key }.map { JSONText.string($0.key) + ":" + JSONText.string($0.value) }
            return prefix + "{" + members.joined(separator: ",") + "}"
        }
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let tail = fields.isEmpty ? "" : " [" + fields.joined(separator: " ") + "]"
        let head = journal ? "" : "\(ISOTime.format(date)) \(level.rawValue) "
        // No control character reaches the terminal or the journal as it is: a line break in a
        // file name would split the line, an escape sequence would move the cursor or forge text.
        return prefix + head + escapingControls(message + tail)
    }

    /// `text` with C0 and C1 control characters and DEL written as `\n`, `\t`, `\x1B`, `\u{9B}`.
    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case let v where v >= 0x80: out += "\\u{" + String(v, radix: 16, uppercase: true) + "}"
            case let v: out += (v < 0x10 ? "\\x0" : "\\x") + String(v, radix: 16, uppercase: true)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
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

/// JSON string literals, written by hand for log lines (RFC 8259: quote, backslash and control
/// characters escaped; everything else as it is).
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case let v where v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v):
                let hex = String(v, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
