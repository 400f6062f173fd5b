import Foundation
import Glibc

/// ISO-8601 timestamps in UTC with milliseconds (`2025-05-01T12:00:00.250Z`), for reports and logs.
public enum ISOTime {
    /// Formatted by hand from `gmtime_r`: every log line needs one, and a formatter object per
    /// line (or one shared between threads) is what this avoids.
    public static func format(_ date: Date) -> String {
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

    /// A timestamp as reports write it, or any ISO 8601 date-time with an offset.
    static func parse(_ text: String) -> Date? {
        if let utc = parseUTC(text) { return utc }  // the reports' own form, without a formatter
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }

    /// Parses the reports' own form (`2026-11-22T05:19:34.997Z`, UTC only) without a formatter:
    /// reading a folder of reports, a formatter per date cost more than the rest of the reading.
    public static func parseUTC(_ text: String) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 20, utf8[4] == 0x2D, utf8[7] == 0x2D, utf8[10] == 0x54, utf8[13] == 0x3A, utf8[16] == 0x3A else {
            return nil
        }
        func number(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                let d = Int(utf8[i]) - 48
                guard (0...9).contains(d) else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var fraction = 0.0
        var i = 19
        if utf8[i] == 0x2E {
            var scale = 0.1
            i += 1
            while i < utf8.count, (48...57).contains(utf8[i]) {
                fraction += Double(utf8[i] - 48) * scale
                scale /= 10
                i += 1
            }
        }
        guard i < utf8.count, utf8[i] == 0x5A else { return nil }  // only UTC ("Z"), as reports write it
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
