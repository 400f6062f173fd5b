import DarkroomCore

/// Everything the daemon needs to run, checked and with every default filled in.
public struct DaemonConfig: Sendable, Equatable {
    /// Files processed at once (1…256); tiles inside a file use the other cores.
    public var workers: Int
    /// Pending files held in memory (1…1 000 000); beyond it, the folder itself is the queue.
    public var queueCapacity: Int
    public var limits: Limits
    public var log: LogSettings
    /// At least one.
    public var watches: [WatchConfig]
    /// Absolute path of the file the config came from; nil for the built-in default.
    public var sourcePath: String?
    /// The YAML text, so the daemon can hash it for reports.
    public var sourceText: String
    /// `state_file:` — where the daemon keeps the small JSON file `darkroom status` reads; nil:
    /// the default place (see the daemon's `StateFileLocation`).
    public var stateFile: String? = nil
    /// `metrics_file:` — a `.prom` file in Prometheus text format, rewritten every 15 s for
    /// node_exporter's textfile collector; nil: no metrics.
    public var metricsFile: String? = nil
    /// `cluster:` — run as one node of several sharing the watched folders through PostgreSQL;
    /// nil: alone, as always.
    public var cluster: ClusterConfig? = nil
    /// What the config says that is valid but likely not meant (a bare angle of 90 is radians),
    /// in file order; `darkroom check` prints them.
    public var warnings: [ConfigDiagnostic] = []

    public init(workers: Int = 2, queueCapacity: Int = 512, limits: Limits = Limits(),
                log: LogSettings = LogSettings(), watches: [WatchConfig],
                sourcePath: String? = nil, sourceText: String = "") {
        self.workers = workers
        self.queueCapacity = queueCapacity
        self.limits = limits
        self.log = log
        self.watches = watches
        self.sourcePath = sourcePath
        self.sourceText = sourceText
    }
}

/// Inputs beyond these are refused with a failed report, before they can exhaust memory.
public struct Limits: Sendable, Equatable {
    /// Width × height of a decoded input; default 100 000 000.
    public var maxPixels: Int
    /// Size of an input file in bytes; default 256 MiB.
    public var maxFileBytes: Int
    /// The pixel memory all jobs together may use at once (each job's peak is estimated before
    /// it starts; jobs wait while the budget is spent). Nil: derived at start-up from the
    /// cgroup's `memory.max` (systemd's `MemoryMax=`), else from the machine's memory.
    public var maxMemory: Int?
    /// Wall-clock seconds one file may take once it started (budget waits excluded); past it
    /// the job is abandoned and reported `timeout`. Default 120.
    public var maxSeconds: Double

    /// The largest `max_pixels` a config may set: 10 gigapixels, 160 GB as float RGBA. Beyond
    /// it the limit no longer protects anything, and pixel counts × 16 bytes could overflow.
    public static let maximumPixelLimit = 10_000_000_000

    public init(maxPixels: Int = 100_000_000, maxFileBytes: Int = 256 << 20, maxMemory: Int? = nil,
                maxSeconds: Double = 120) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.maxMemory = maxMemory
        self.maxSeconds = maxSeconds
    }
}

/// How the daemon logs.
public struct LogSettings: Sendable, Equatable {
    /// One of ``LogSettings/levels``; default `info`.
    public var level: String
    public var format: LogFormat

    /// The accepted levels, quietest last (swift-log's names).
    public static let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    public init(level: String = "info", format: LogFormat = .text) {
        self.level = level
        self.format = format
    }
}

/// One log line per event: readable text, or one JSON object per line.
public enum LogFormat: String, Sendable, Equatable, CaseIterable {
    case text, json
}
