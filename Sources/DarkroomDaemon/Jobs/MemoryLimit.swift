import DarkroomConfig
import Foundation
import Glibc
import Logging

/// Where the default memory budget comes from: the memory the daemon's cgroup may use
/// (`memory.max`, which systemd's `MemoryMax=` sets), else the machine's memory.
public enum MemoryLimit {
    /// The share of the limit given to job pixels; the rest is the daemon itself, encoded
    /// outputs, the libraries' own buffers and the page cache a cgroup also counts.
    static let jobShare = 0.75

    /// The budget for `configured` (`limits.max_memory`), or the default, with where it came from.
    public static func budget(configured: Int?, cgroupRoot: String = "/sys/fs/cgroup",
                              procSelfCgroup: String = "/proc/self/cgroup") -> (bytes: Int, source: String) {
        if let configured { return (configured, "limits.max_memory") }
        if let limit = cgroupLimit(root: cgroupRoot, procSelfCgroup: procSelfCgroup) {
            return (Int(Double(limit) * jobShare), "3/4 of the cgroup's memory.max")
        }
        let physical = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        return (Int(Double(physical) * jobShare), "3/4 of the machine's memory")
    }

    /// The smallest `memory.max` on the way from the daemon's cgroup (v2) up to the root, or
    /// nil when none is set (`max`) or there is no cgroup v2.
    static func cgroupLimit(root: String, procSelfCgroup: String) -> Int? {
        guard let text = FileIO.readToEnd(procSelfCgroup, maxBytes: 1 << 16) else { return nil }
        // cgroup v2: the one line "0::/system.slice/darkroom.service".
        guard let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        var components = line.dropFirst(3).split(separator: "/").map(String.init)
        var smallest: Int?
        while true {
            let folder = ([root] + components).joined(separator: "/")
            if let bytes = FileIO.readToEnd(folder + "/memory.max", maxBytes: 64),
               let value = Int(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
                smallest = min(smallest ?? value, value)
            }
            guard !components.isEmpty else { break }
            components.removeLast()
        }
        return smallest
    }
}

extension MemoryLimit {
    /// The memory budget for `config` (logged when new): the one in use when its size is unchanged.
    static func makeBudget(_ config: DaemonConfig, previous: MemoryBudget?, logger: Logger) -> MemoryBudget {
        let (bytes, source) = budget(configured: config.limits.maxMemory)
        if let previous, previous.total == bytes { return previous }
        logger.notice("memory budget for images: \(JobRunner.mebibytes(bytes)) (\(source)); larger jobs wait, and a job that could never fit fails as too_large")
        return MemoryBudget(total: bytes, resident: { SharedAssets.store.byteCount })
    }
}
