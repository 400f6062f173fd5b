/// `cluster:` — several darkroom nodes over one shared folder, coordinated through PostgreSQL
/// (see docs/cluster.md). Without it the daemon runs alone, as always.
public struct ClusterConfig: Sendable, Equatable {
    /// Where the libpq connection string comes from; never resolved while the config loads
    /// (a credential or a variable exists only where the service runs).
    public enum DatabaseSource: Sendable, Equatable {
        /// `database:` — the connection string itself (`host=db dbname=darkroom`, or a
        /// `postgresql://` URI). Keep passwords out of it: libpq also reads `~/.pgpass`.
        case inline(String)
        /// `database_file:` — a file holding it (absolute).
        case file(String)
        /// `database_env:` — an environment variable holding it.
        case environment(String)
        /// `database_credential:` — a systemd credential (`LoadCredential=NAME:…`), read from
        /// `$CREDENTIALS_DIRECTORY/NAME`.
        case credential(String)
    }

    public var database: DatabaseSource
    /// This node's name: in the database, the reports, the log and `darkroom status`. Unique in
    /// the cluster; default: the host name.
    public var node: String
    /// Seconds between two scans of a watched folder by the node that ingests it; default 2.
    public var scanInterval: Double
    /// Seconds a claim holds a job without a heartbeat; renewed every third of it; default 30.
    public var leaseSeconds: Double
    /// Tries of one file (a transient error, or a node that died holding it) before it fails
    /// as `gave_up`; default 5.
    public var maxAttempts: Int
    /// Days finished jobs stay in the database before they are pruned; default 7.
    public var keepDoneDays: Int

    public init(database: DatabaseSource, node: String, scanInterval: Double = 2, leaseSeconds: Double = 30,
                maxAttempts: Int = 5, keepDoneDays: Int = 7) {
        self.database = database
        self.node = node
        self.scanInterval = scanInterval
        self.leaseSeconds = leaseSeconds
        self.maxAttempts = maxAttempts
        self.keepDoneDays = keepDoneDays
    }
}
