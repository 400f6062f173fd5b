import Foundation
import Glibc

/// ISO-8601 timestamps in UTC with milliseconds (`2025-05-01T12:00:00.250Z`), for reports and logs.
enum ISOTime {
    /// Formatted by hand from `gmtime_r`: every log line needs one, and a formatter object per
    /// line (or one shared between threads) is what this avoids.
    static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var millis = Int(((interval - Double(seconds)) * 1000).rounded())
        if millis == 1000 { seconds += 1; millis = 0 }
        var t = tm()
        gmtime_r(&seconds, &t)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(t.tm_year + 1900, 4))-\(pad(t.tm_mon + 1, 2))-\(pad(t.tm_mday, 2))T"
            + "\(pad(t.tm_hour, 2)):\(pad(t.tm_min, 2)):\(pad(t.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    static func parse(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }
}
