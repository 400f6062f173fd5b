/// The cluster's tables, created and migrated by darkroom itself.
///
/// Each migration runs once, in order, in one transaction that first takes a transaction-level
/// advisory lock: nodes starting together on an empty database queue on the lock, the first
/// creates the schema, the others find it at the current version and do nothing. The version
/// lives in `darkroom_schema`, so an older darkroom meeting a newer schema refuses to run
/// rather than misread it. Everything is plain PostgreSQL 13+: no extension.
public enum ClusterSchema {
    /// Advisory lock keys (first argument of the two-key form): 0x6472 is "dr".
    static let lockClass: Int32 = 0x6472
    static let migrationLock: Int32 = 0
    /// `pg_try_advisory_lock(lockClass, hashtext('ingest:' || watch))` elects a watch's ingesting node.
    static let ingestPrefix = "ingest:"

    /// The channel a node notifies after inserting jobs, so idle workers claim at once.
    static let channel = "darkroom_jobs"

    /// Migration n (1-based) brings the schema from version n-1 to n.
    static let migrations: [String] = [
        """
        CREATE TABLE darkroom_nodes (
            name         text PRIMARY KEY,
            host         text NOT NULL,
            pid          integer NOT NULL,
            version      text NOT NULL,
            workers      integer NOT NULL,
            started_at   timestamptz NOT NULL DEFAULT now(),
            heartbeat_at timestamptz NOT NULL DEFAULT now(),
            stopped_at   timestamptz,
            processed    bigint NOT NULL DEFAULT 0,
            failed       bigint NOT NULL DEFAULT 0
        );
        CREATE SEQUENCE darkroom_fence;
        CREATE TABLE darkroom_jobs (
            id          bigserial PRIMARY KEY,
            watch       text NOT NULL,
            path        text NOT NULL,
            size        bigint NOT NULL,
            mtime_ns    bigint NOT NULL,
            inode       bigint NOT NULL,
            state       text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done')),
            status      text,
            error       text,
            node        text,
            token       bigint,
            lease_until timestamptz,
            not_before  timestamptz NOT NULL DEFAULT now(),
            attempts    integer NOT NULL DEFAULT 0,
            queued_at   timestamptz NOT NULL DEFAULT now(),
            started_at  timestamptz,
            finished_at timestamptz,
            UNIQUE (watch, path, size, mtime_ns)
        );
        CREATE INDEX darkroom_jobs_active ON darkroom_jobs (id) WHERE state <> 'done';
        CREATE INDEX darkroom_jobs_finished ON darkroom_jobs (finished_at) WHERE state = 'done';
        """,
    ]

    public static var currentVersion: Int { migrations.count }

    /// What ``migrate(_:)`` did.
    public enum Outcome: Equatable, Sendable {
        case upToDate(version: Int)
        case migrated(from: Int, to: Int)
    }

    /// The schema's version, 0 when darkroom never ran on this database.
    public static func version(_ db: PGConnection) throws(PGError) -> Int {
        let exists = try db.query("SELECT to_regclass('darkroom_schema') IS NOT NULL").scalar == "t"
        guard exists else { return 0 }
        return Int(try db.query("SELECT version FROM darkroom_schema").scalar ?? "0") ?? 0
    }

    /// Brings the schema to ``currentVersion``.
    @discardableResult
    public static func migrate(_ db: PGConnection) throws(ClusterSchemaError) -> Outcome {
        let result: Result<Outcome, ClusterSchemaError>
        do {
            result = try db.transaction { db throws(PGError) in
                try db.query("SELECT pg_advisory_xact_lock($1, $2)", [String(lockClass), String(migrationLock)])
                try db.query("CREATE TABLE IF NOT EXISTS darkroom_schema (version integer NOT NULL)")
                guard let text = try db.query("SELECT version FROM darkroom_schema").scalar else {
                    try db.query("INSERT INTO darkroom_schema (version) VALUES (0)")
                    return .success(try apply(db, from: 0))
                }
                let version = Int(text) ?? 0
                guard version <= currentVersion else { return .failure(.newer(version: version, known: currentVersion)) }
                return .success(try apply(db, from: version))
            }
        } catch {
            throw .database(error)
        }
        return try result.get()
    }

    private static func apply(_ db: PGConnection, from version: Int) throws(PGError) -> Outcome {
        guard version < currentVersion else { return .upToDate(version: version) }
        for n in version..<currentVersion { try db.script(migrations[n]) }
        try db.query("UPDATE darkroom_schema SET version = $1", [String(currentVersion)])
        return .migrated(from: version, to: currentVersion)
    }
}

/// Why the schema could not be brought up to date.
public enum ClusterSchemaError: Error, Sendable, CustomStringConvertible {
    case database(PGError)
    case newer(version: Int, known: Int)

    public var description: String {
        switch self {
        case .database(let e): "cannot create or migrate the cluster schema: \(e)"
        case .newer(let version, let known):
            "the database's darkroom schema is version \(version), newer than this darkroom knows (\(known)); upgrade this node"
        }
    }
}
