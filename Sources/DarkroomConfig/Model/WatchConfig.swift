import DarkroomCodecs

/// One watched folder and what to make of each image that lands in it.
public struct WatchConfig: Sendable, Equatable {
    /// Unique among the watches; defaults to the folder's last path component. Fills `{watch}`.
    public var name: String
    /// Absolute and standardized.
    public var path: String
    /// Whether subfolders are watched too; default false.
    public var recursive: Bool
    /// File-name globs, matched case-insensitively; default ``defaultInclude`` (the file is then
    /// read by its content).
    public var include: [String]
    /// How long a file must stay unchanged before it is taken; default 250.
    public var settleMilliseconds: Int
    /// What becomes of an input once every output is written; default move.
    public var onSuccess: SuccessAction
    /// Absolute; where inputs go on success with `move` (default `<path>/../done`).
    public var doneDirectory: String
    /// Absolute; where inputs that failed go (default `<path>/../failed`).
    public var failedDirectory: String
    /// Absolute; where the JSON reports go (default `<path>/../reports`).
    public var reportsDirectory: String
    /// What happens when an output path is already taken by the output of another input.
    public var onConflict: ConflictRule
    /// A fixed seed for `random` parameters; nil draws a fresh seed per job.
    public var seed: UInt64?
    /// At least one.
    public var outputs: [OutputConfig]
    /// The box, in pixels, of the thumbnails of each input and output written for the contact
    /// sheet (``thumbnailsDirectory``); nil writes none.
    public var thumbnailBox: Int? = WatchConfig.defaultThumbnailBox
    /// Absolute; where the thumbnails go, under the watch's name (default: `thumbnails` beside
    /// `reportsDirectory`, so a folder of reports holds reports only).
    public var thumbnailsDirectory: String
    /// `darkroom report --html`'s default thumbnail size, so its sheet takes them as they are.
    public static let defaultThumbnailBox = 160

    /// The file-name globs used when `include` is not given: every extension of every format
    /// darkroom reads (``ImageFormat/extensionGlobs``).
    public static let defaultInclude = ImageFormat.extensionGlobs

    /// A watch with the defaults of a config that names only `path` and `outputs`.
    public init(name: String? = nil, path: String, recursive: Bool = false,
                include: [String] = WatchConfig.defaultInclude, settleMilliseconds: Int = 250,
                onSuccess: SuccessAction = .move, doneDirectory: String? = nil,
                failedDirectory: String? = nil, reportsDirectory: String? = nil,
                onConflict: ConflictRule = .number, seed: UInt64? = nil, outputs: [OutputConfig]) {
        self.name = name ?? ConfigPath.lastComponent(of: path)
        self.path = path
        self.recursive = recursive
        self.include = include
        self.settleMilliseconds = settleMilliseconds
        self.onSuccess = onSuccess
        self.doneDirectory = doneDirectory ?? ConfigPath.sibling("done", of: path)
        self.failedDirectory = failedDirectory ?? ConfigPath.sibling("failed", of: path)
        self.reportsDirectory = reportsDirectory ?? ConfigPath.sibling("reports", of: path)
        thumbnailsDirectory = ConfigPath.sibling("thumbnails", of: self.reportsDirectory)
        self.onConflict = onConflict
        self.seed = seed
        self.outputs = outputs
    }
}

/// What becomes of an input after all its outputs were written.
public enum SuccessAction: String, Sendable, Equatable, CaseIterable {
    /// Moved into the done folder.
    case move
    /// Removed.
    case delete
    /// Left where it is (the daemon remembers it was processed).
    case keep
}

/// What happens when two inputs map to one output path (`x.jpg` and `x.png` → `out/x.jpg`).
/// An output the same input wrote before (its earlier version) is always replaced.
public enum ConflictRule: String, Sendable, Equatable, CaseIterable {
    /// The later input's output replaces the earlier one (the report says whose it replaced).
    case overwrite
    /// The later output gets a free numbered name (`x-1.jpg`); nothing is replaced. Default.
    case number
    /// The later input fails (`output_exists`) and goes to the failed folder.
    case fail
}
