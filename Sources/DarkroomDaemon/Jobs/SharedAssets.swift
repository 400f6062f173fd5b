import DarkroomCodecs

/// The process's one asset store: every config (the first, and each one SIGHUP reads) and every
/// `--chain` loads the files its filters name through it, so a watermark used by many outputs and
/// jobs is decoded once and held once; the memory budget sets its bytes aside once
/// (``MemoryBudget``), and SIGHUP makes it read every file again.
public enum SharedAssets {
    public static let store = AssetStore(hash: { SHA256.hex($0) })
}
