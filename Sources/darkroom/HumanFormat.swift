import DarkroomDaemon
import Foundation

/// Numbers, sizes, durations and times as a person reads them at a glance in a terminal.
enum HumanFormat {
    /// `950 ms`, `4.2 s`, `3 min 05 s`, `2 h 13 min`, `3 d 4 h`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let s = Int(seconds.rounded())
        if s < 3600 { return String(format: "%d min %02d s", s / 60, s % 60) }
        if s < 86400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86400) d \(s % 86400 / 3600) h"
    }

    /// `770 B`, `35 KB`, `1.2 MB`, `3.4 GB` (powers of 1000, as the daemon's log lines write them).
    static func bytes(_ n: Int) -> String { ByteText.format(n) }

    /// `12,345`.
    static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// `2026-11-22 10:12:59` in the local time zone.
    static func time(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }

    /// `3 s ago`, `12 min 05 s ago`.
    static func ago(_ date: Date, now: Date = Date()) -> String {
        duration(max(0, now.timeIntervalSince(date))) + " ago"
    }
}
