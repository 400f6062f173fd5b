import CLinuxFiles

/// How the process asks glibc for memory: set once at start, before any image is decoded.
public enum ProcessMemory {
    /// Large blocks (band buffers, decoded assets, encoded files) each get their own mapping,
    /// given back to the system when freed, instead of glibc raising its threshold after the
    /// first large free and keeping them in a heap that does not shrink (see the shim).
    public static func returnLargeBlocks() {
        _ = darkroom_fix_mmap_threshold()
    }

    /// Gives the heaps' free pages back to the system, called when no job is running: blocks
    /// under the mmap threshold and the trim threshold's slack at each heap's top would otherwise
    /// stay resident while the daemon waits for files.
    static func releaseFreeHeap() {
        _ = darkroom_release_free_heap()
    }
}
