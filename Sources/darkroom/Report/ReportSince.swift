import Foundation
import DarkroomDaemon

/// `--since`: a duration back from now (`90s`, `30m`, `1h`, `2d`, `1w`) or a point in time
/// (`2026-11-20`, local midnight; `2026-11-20T14:00`, local; `2026-11-20T14:00:00Z`, UTC).
enum ReportSince {
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        if let unit = text.last, let scale = units[unit], let amount = Double(text.dropLast()), amount >= 0 {
            return now.addingTimeInterval(-amount * scale)
        }
        if let utc = ISOTime.parseUTC(text) { return utc }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = .current
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm:ss"] {
            f.dateFormat = format
            if let date = f.date(from: text) { return date }
        }
        return nil
    }
}
