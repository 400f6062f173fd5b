import Foundation
import Glibc

/// A PostgreSQL server of the tests' own (Debian's `postgresql` package), made with `initdb`
/// in a fresh temporary folder and run with `pg_ctl`; it listens on a Unix socket in that
/// folder only, so tests never meet another server or a port in use. PostgreSQL refuses to run
/// as root, so under root the server runs as the `postgres` user (the folder is given to it).
///
/// The server stops when the object is released (and the folder is removed), and also when the
/// test process dies without releasing it: a small watcher process stops it then. A missing
/// PostgreSQL is an error naming the package, never a skip.
public final class PostgresServer {
    public let folder: TemporaryFolder
    public let port = 5432
    private let bin: String
    private var running = false

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// libpq's connection string for it.
    public var conninfo: String { "host=\(folder.path) port=\(port) user=darkroom dbname=postgres" }
    var dataDirectory: String { folder.file("data") }

    public init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.compactMap(Int.init).max(),
              FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(newest)/bin/initdb") else {
            throw Failure(description: "PostgreSQL's initdb is not installed: install postgresql (scripts/install-deps.sh)")
        }
        bin = "/usr/lib/postgresql/\(newest)/bin"
        folder = TemporaryFolder(prefix: "darkroom-pg")
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw Failure(description: "no postgres user to run PostgreSQL as (it refuses root): install postgresql")
            }
            guard chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw Failure(description: "cannot give \(folder.path) to the postgres user")
            }
        }
        try runAsServerUser(bin + "/initdb", ["-D", dataDirectory, "-A", "trust", "-U", "darkroom", "--no-sync",
                                              "-E", "UTF8", "--locale=C.UTF-8"])
        // Tuned for tests: no fsync (a killed server still recovers from its WAL in the page
        // cache; only a power cut would lose anything), few connections' worth of memory.
        let settings = """
            listen_addresses = ''
            unix_socket_directories = '\(folder.path)'
            port = \(port)
            fsync = off
            synchronous_commit = off
            full_page_writes = off
            max_connections = 100
            shared_buffers = 32MB
            """
        try settings.appending("\n").write(toFile: dataDirectory + "/postgresql.auto.conf", atomically: false, encoding: .utf8)
        watchForOrphaning()
        try start()
    }

    deinit {
        if running { try? stop(mode: "immediate") }
    }

    public func start() throws {
        try runAsServerUser(bin + "/pg_ctl", ["-D", dataDirectory, "-l", folder.file("server.log"), "-w", "-t", "30", "start"])
        running = true
    }

    /// `fast` ends every session and shuts down cleanly; `immediate` is a crash (recovery at the next start).
    public func stop(mode: String = "fast") throws {
        try runAsServerUser(bin + "/pg_ctl", ["-D", dataDirectory, "-m", mode, "-w", "-t", "30", "stop"])
        running = false
    }

    /// Runs `sql` with `psql` and returns its unaligned, tuples-only output, trimmed.
    @discardableResult
    public func sql(_ sql: String) throws -> String {
        try Self.spawn([bin + "/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder.path, "-p", String(port),
                        "-U", "darkroom", "-d", "postgres", "-c", sql])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The server's log, to explain a failure.
    public var log: String { (try? String(contentsOfFile: folder.file("server.log"), encoding: .utf8)) ?? "" }

    private func runAsServerUser(_ tool: String, _ arguments: [String]) throws {
        _ = try Self.spawn((getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [tool] + arguments)
    }

    /// Runs `argv` to completion with posix_spawn and waitpid (not Foundation's Process, whose
    /// reaping did not see `runuser` end), its output in a file; returns the output, throws
    /// with it when the exit status is not 0.
    static func spawn(_ argv: [String]) throws -> String {
        let outputFile = "/tmp/darkroom-pg-out-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard rc == 0 else { throw Failure(description: "cannot run \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\(argv.joined(separator: " ")) failed (status \(status)): \(output)")
        }
        return output
    }

    /// Stops the server if this test process dies (a crash, a kill) before `deinit` could.
    private func watchForOrphaning() {
        let stop = (getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : "") + "\(bin)/pg_ctl -D '\(dataDirectory)' -m immediate stop"
        let script = "while kill -0 \(getpid()) 2>/dev/null && [ -d '\(dataDirectory)' ]; do sleep 1; done; "
            + "[ -f '\(dataDirectory)/postmaster.pid' ] && \(stop) >/dev/null 2>&1; exit 0"
        let cArgs: [UnsafeMutablePointer<CChar>?] = [String](arrayLiteral: "/bin/sh", "-c", script).map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0) }
        var pid: pid_t = 0
        // Never waited for: it outlives this object by design, and is reaped by init if the test process dies first.
        _ = posix_spawn(&pid, "/bin/sh", &actions, nil, cArgs, environ)
    }
}
