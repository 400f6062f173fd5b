import Foundation
import Glibc

/// Tells whether the process a state file names is still alive, and is still the same process.
public enum ProcessIdentity {
    /// The start time of `pid` in clock ticks since boot, from `/proc/PID/stat`; nil when it
    /// cannot be read (no such process, or /proc hides it).
    public static func startTicks(of pid: Int32) -> UInt64? {
        // Read, not stat-then-read: /proc files report a size of 0.
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[..<n], as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces: count from after it.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Whether `pid` is alive and, when both start times are known, started when `startTicks` says.
    public static func isAlive(pid: Int32, startTicks: UInt64?) -> Bool {
        guard pid > 0 else { return false }
        if kill(pid, 0) != 0 && errno != EPERM { return false }
        if let expected = startTicks, let actual = self.startTicks(of: pid), actual != expected { return false }
        return true
    }
}
