import DarkroomConfig
import Foundation
import Logging

/// Whether this node can reach PostgreSQL, shared by its threads so that an outage is logged
/// once (not once per worker and statement) and its end once.
final class DatabaseHealth: Sendable {
    private let logger: Logger
    private let state = Locked<Date?>(nil)

    init(logger: Logger) { self.logger = logger }

    var isDown: Bool { state.current != nil }

    func failed(_ error: PGError) {
        let first = state.withLock { since in defer { since = since ?? Date() }; return since == nil }
        if first {
            logger.error("the database is unreachable (\(error)); this node stops claiming files, publishes nothing its lease no longer covers, and resumes by itself when the database is back")
        }
    }

    func reachable() {
        guard let since = state.withLock({ since in defer { since = nil }; return since }) else { return }
        logger.notice("the database is reachable again after \(String(format: "%.1f", Date().timeIntervalSince(since))) s; claiming resumes")
    }
}

/// One thread's connection to the cluster database: connects when needed (retrying with
/// backoff while the database is away), runs statements, and drops the connection when the
/// server went away so the next use reconnects. Used by one thread only.
final class DatabaseSession {
    let conninfo: String
    let application: String
    let health: DatabaseHealth
    let logger: Logger
    private(set) var connection: PGConnection?
    private var nextAttempt: UInt64 = 0
    private var backoff = 0.25
    /// Run on each new connection (LISTEN, for one).
    var onConnect: (PGConnection) throws(PGError) -> Void = { _ in }

    init(conninfo: String, application: String, health: DatabaseHealth, logger: Logger) {
        self.conninfo = conninfo
        self.application = application
        self.health = health
        self.logger = logger
    }

    /// Runs `body` on a live connection. Nil when there is none now (the database is away: the
    /// caller waits and tries again) or the statement failed (logged here).
    func run<T>(_ body: (PGConnection) throws(PGError) -> T) -> T? {
        // A connection that died while idle (the server restarted) is only found out by using
        // it: then one fresh connection is tried at once, so a restart that is already over is
        // not taken for an outage.
        for attempt in 0..<2 {
            guard let db = connect() else { return nil }
            do {
                let value = try body(db)
                health.reachable()
                return value
            } catch {
                guard error.connectionLost || !db.isAlive else {
                    logger.error("database: \(error)")
                    return nil
                }
                connection = nil
                if attempt == 1 { health.failed(error) }
            }
        }
        return nil
    }

    /// The connection, made now if there is none and the backoff allows.
    func connect() -> PGConnection? {
        if let connection, connection.isAlive { return connection }
        connection = nil
        let now = JobLease.now()
        guard now >= nextAttempt else { return nil }
        do {
            let db = try PGConnection(conninfo: conninfo, application: application)
            try onConnect(db)
            connection = db
            backoff = 0.25
            return db
        } catch {
            health.failed(error)
            nextAttempt = now + UInt64(backoff * 1e9)
            backoff = min(5, backoff * 2)
            return nil
        }
    }
}

/// Where the connection string comes from (``ClusterConfig/DatabaseSource``), read when the
/// daemon starts.
public enum ConnectionString {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    public static func resolve(_ source: ClusterConfig.DatabaseSource,
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws(Missing) -> String {
        switch source {
        case .inline(let text): return text
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw Missing(description: "cluster.database_env: the environment variable \(name) is not set")
            }
            return value
        case .file(let path): return try read(path, "cluster.database_file")
        case .credential(let name):
            guard let folder = environment["CREDENTIALS_DIRECTORY"] else {
                throw Missing(description: "cluster.database_credential: $CREDENTIALS_DIRECTORY is not set (run under systemd with LoadCredential=\(name):FILE)")
            }
            return try read(folder + "/" + name, "cluster.database_credential")
        }
    }

    private static func read(_ path: String, _ key: String) throws(Missing) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Missing(description: "\(key): cannot read \(path)")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Missing(description: "\(key): \(path) is empty") }
        return text
    }
}
