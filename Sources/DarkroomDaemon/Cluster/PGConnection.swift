import CPostgres
import Foundation

/// One libpq connection, used by one thread at a time (libpq connections are not shared
/// between threads). Statements take text parameters and give text results: the cluster's few
/// statements need nothing more, and text keeps every value readable in logs.
///
/// libpq is opened with dlopen by the first connection (`pq`, CPostgres), so a daemon without
/// `cluster:` never maps it; when it cannot load, connecting fails with a message naming the
/// library and its Debian package.
///
/// libpq's default notice processor prints server notices (`relation … already exists,
/// skipping`) to stderr; it is replaced by one that drops them, as the daemon's log is its own.
public final class PGConnection {
    private var conn: OpaquePointer?
    /// libpq's functions.
    private let pq: dr_pq_functions

    /// Seconds libpq waits for a server to answer a connection.
    static let connectTimeoutSeconds = 5

    /// Connects to `conninfo` (a libpq connection string or URI). `application` names the
    /// session in `pg_stat_activity`.
    public init(conninfo: String, application: String) throws(PGError) {
        let functions = try Self.library()
        pq = functions.pointee
        // Our defaults first: values in the connection string, processed later, override them.
        let keywords = ["connect_timeout", "application_name", "keepalives_idle", "keepalives_interval", "keepalives_count", "dbname"]
        let values = [String(Self.connectTimeoutSeconds), application, "10", "5", "3", conninfo]
        conn = Self.withCStrings(keywords) { k in Self.withCStrings(values) { v in functions.pointee.PQconnectdbParams(k, v, 1) } }
        guard let conn else { throw PGError(message: "out of memory", sqlState: nil, connectionLost: true) }
        _ = pq.PQsetNoticeProcessor(conn, { _, _ in }, nil)
        guard pq.PQstatus(conn) == CONNECTION_OK else {
            let message = Self.text(pq.PQerrorMessage(conn)) ?? "cannot connect"
            pq.PQfinish(conn)
            self.conn = nil
            throw PGError(message: message, sqlState: nil, connectionLost: true)
        }
    }

    /// libpq's functions, libpq being opened now if it is not yet; throws (not a lost
    /// connection: trying again cannot help) with the library and its Debian package when it
    /// cannot load. The cluster daemon calls it first, so that it stops at once with that message.
    public static func library() throws(PGError) -> UnsafePointer<dr_pq_functions> {
        var message = [CChar](repeating: 0, count: 512)
        guard let functions = dr_pq_load(&message, message.count) else {
            throw PGError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                          sqlState: nil, connectionLost: false)
        }
        return functions
    }

    deinit { if let conn { pq.PQfinish(conn) } }

    /// Whether the connection still works, as far as libpq knows.
    public var isAlive: Bool { conn.map { pq.PQstatus($0) == CONNECTION_OK } ?? false }

    /// The server's process id for this session (for `pg_terminate_backend` in tests).
    public var backendPID: Int32 { conn.map { pq.PQbackendPID($0) } ?? 0 }

    /// Runs one statement with `$1…` parameters (nil is SQL NULL) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> PGRows {
        guard let conn else { throw PGError(message: "not connected", sqlState: nil, connectionLost: true) }
        let result: OpaquePointer? = Self.withOptionalCStrings(parameters) { values in
            pq.PQexecParams(conn, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { pq.PQclear(result) }
        guard let result else { throw lastError(conn) }
        switch pq.PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
            return PGRows(result, pq)
        default:
            let message = Self.text(pq.PQresultErrorField(result, Int32(UInt8(ascii: "M")))) ?? Self.text(pq.PQerrorMessage(conn))
            let state = Self.text(pq.PQresultErrorField(result, Int32(UInt8(ascii: "C"))))
            throw PGError(message: message ?? "unknown error", sqlState: state,
                          connectionLost: pq.PQstatus(conn) != CONNECTION_OK || state.map(PGError.isConnectionState) == true)
        }
    }

    /// Runs several statements without parameters (a migration), in the simple query protocol.
    public func script(_ sql: String) throws(PGError) {
        guard let conn else { throw PGError(message: "not connected", sqlState: nil, connectionLost: true) }
        let result = pq.PQexec(conn, sql)
        defer { pq.PQclear(result) }
        guard let result else { throw lastError(conn) }
        guard pq.PQresultStatus(result) == PGRES_COMMAND_OK || pq.PQresultStatus(result) == PGRES_TUPLES_OK else {
            let message = Self.text(pq.PQresultErrorField(result, Int32(UInt8(ascii: "M")))) ?? "unknown error"
            let state = Self.text(pq.PQresultErrorField(result, Int32(UInt8(ascii: "C"))))
            throw PGError(message: message, sqlState: state,
                          connectionLost: pq.PQstatus(conn) != CONNECTION_OK || state.map(PGError.isConnectionState) == true)
        }
    }

    /// Runs `body` in a transaction; rolls back when it throws.
    public func transaction<T>(_ body: (PGConnection) throws(PGError) -> T) throws(PGError) -> T {
        try query("BEGIN")
        do {
            let value = try body(self)
            try query("COMMIT")
            return value
        } catch {
            if isAlive { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Listens on `channel` (a fixed identifier, not user input).
    public func listen(_ channel: String) throws(PGError) { try query("LISTEN " + channel) }

    /// Waits up to `seconds` for a notification on a channel this session listens to; returns
    /// whether one came (all waiting are consumed). False at once when the connection is gone.
    public func waitForNotification(seconds: Double) -> Bool {
        guard let conn, pq.PQstatus(conn) == CONNECTION_OK else { return false }
        if drainNotifications(conn) { return true }
        var fds = pollfd(fd: pq.PQsocket(conn), events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, Int32(seconds * 1000)) > 0 else { return false }
        guard pq.PQconsumeInput(conn) == 1 else { return false }
        return drainNotifications(conn)
    }

    private func drainNotifications(_ conn: OpaquePointer) -> Bool {
        var any = false
        while let note = pq.PQnotifies(conn) {
            pq.PQfreemem(note)
            any = true
        }
        return any
    }

    private func lastError(_ conn: OpaquePointer) -> PGError {
        PGError(message: Self.text(pq.PQerrorMessage(conn)) ?? "unknown error", sqlState: nil,
                connectionLost: pq.PQstatus(conn) != CONNECTION_OK)
    }

    /// A message from libpq, without its final newline; nil when there is none.
    private static func text(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let s = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? nil : s
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        withOptionalCStrings(strings) { body($0!) }
    }

    /// A NULL-terminated array of C strings (nil entries stay NULL) for the duration of `body`.
    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies = strings.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

/// The rows of a result, as text (nil for SQL NULL), copied out of libpq's result.
public struct PGRows: Sendable {
    public let columns: [String]
    public let rows: [[String?]]
    /// Rows a command touched (`UPDATE 3` → 3).
    public let affected: Int

    init(_ result: OpaquePointer, _ pq: dr_pq_functions) {
        // libpq returns NULL for these only when a row or column is out of range (never here).
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        let n = Int(pq.PQntuples(result)), m = Int(pq.PQnfields(result))
        columns = (0..<m).map { text(pq.PQfname(result, Int32($0))) }
        rows = (0..<n).map { r in
            (0..<m).map { c in
                pq.PQgetisnull(result, Int32(r), Int32(c)) == 1 ? nil : text(pq.PQgetvalue(result, Int32(r), Int32(c)))
            }
        }
        affected = Int(text(pq.PQcmdTuples(result))) ?? 0
    }

    public var isEmpty: Bool { rows.isEmpty }
    public var count: Int { rows.count }

    /// The first row's first value.
    public var scalar: String? { rows.first?.first ?? nil }
}

/// A failed statement or connection, with the SQLSTATE when the server sent one.
public struct PGError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var sqlState: String?
    /// The session is gone (server restarted, network down): reconnect before going on.
    public var connectionLost: Bool

    public var description: String { message }

    /// SQLSTATE classes that mean the session cannot go on: 08 (connection exception), 57P01–03
    /// (admin shutdown, crash shutdown, cannot connect now).
    static func isConnectionState(_ state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }
}
