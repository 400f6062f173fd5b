import CLinuxFiles

/// How the process asks glibc for memory: set once at start, before any image is decoded.
public enum ProcessMemory {
    /// Large blocks (band buffers, decoded assets, encoded files) each get their own mapping,
    /// given back to the system when freed, instead of glibc raising its threshold after the
    /// first large free and keeping them in a heap that does not shrink (see the shim).
    public static func returnLargeBlocks() {
        _ = darkroom_fix_mmap_threshold()
    }
}
