import Foundation

/// The state file: what the running daemon is doing, rewritten at most once a second (see
/// ``StatePublisher``) and read by `darkroom status`. Keys are snake_case and stable, like the
/// report's; dates are ISO 8601 in UTC.
public struct DaemonState: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = Self.currentSchemaVersion
    public var darkroomVersion: String
    public var pid: Int32
    /// The process's start time in clock ticks since boot (`/proc/PID/stat`, field 22): with the
    /// pid it names one process, so a pid reused after a crash is not mistaken for the daemon.
    public var processStartTicks: UInt64?
    public var started: Date
    /// When this file was written.
    public var updated: Date
    /// False in the last file a daemon writes as it stops cleanly.
    public var running: Bool
    public var config: Config
    public var workers: Int
    public var watches: [Watch]

    public struct Config: Codable, Sendable, Equatable {
        /// Nil for the built-in config (`darkroom run` without `--config`).
        public var path: String?
        public var sha256: String
        public var loaded: Date
        /// SIGHUP outcomes: `success` and `failure`.
        public var reloads: [String: Int]
    }

    public struct Watch: Codable, Sendable, Equatable {
        public var name: String
        public var path: String
        public var reportsDir: String
        /// Waiting in the daemon's queue (files beyond `queue_capacity` wait in the folder and
        /// are not counted).
        public var queued: Int
        public var inFlight: [InFlight]
        public var doneLastHour: Int
        public var failedLastHour: Int
        public var doneLastDay: Int
        public var failedLastDay: Int
        /// Since the daemon started: `ok`, `failed`, `skipped`.
        public var totals: [String: Int]
        public var lastSuccess: Date?
        public var lastError: LastError?
    }

    public struct InFlight: Codable, Sendable, Equatable {
        public var path: String
        public var started: Date
    }

    public struct LastError: Codable, Sendable, Equatable {
        public var time: Date
        public var file: String
        public var code: String
        public var message: String
    }

    /// Encoded as the file holds it (sorted keys, ISO dates, final newline).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Safe for the dictionaries too: their keys (ok, failed, skipped, success, failure) are
        // lowercase words the conversion leaves alone.
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, e in
            var c = e.singleValueContainer()
            try c.encode(ISOTime.format(date))
        }
        return try encoder.encode(self) + Data([0x0A])
    }

    public static func decode(_ data: Data) throws -> DaemonState {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { d in
            let c = try d.singleValueContainer()
            let text = try c.decode(String.self)
            guard let date = ISOTime.parse(text) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO-8601 date: \(text)")
            }
            return date
        }
        return try decoder.decode(DaemonState.self, from: data)
    }
}
