import Foundation

/// The few fields of a JSON report that `darkroom report` needs; the rest of the file (chains,
/// stages, parameters) is skipped by the decoder, which keeps 100,000 reports quick to read.
struct ReportEntry: Decodable {
    var watch: String
    var status: String
    var error: ErrorPart?
    var input: InputPart
    var outputs: [OutputPart]
    var timings: TimingsPart

    struct ErrorPart: Decodable {
        var code: String
        var message: String
    }

    struct InputPart: Decodable {
        var path: String
        var bytes: Int
    }

    struct OutputPart: Decodable {
        var bytes: Int
    }

    struct TimingsPart: Decodable {
        var started: String
        var finished: String
        var total: Double
    }

    var startedDate: Date? { ReportDate.parse(timings.started) }
    var finishedDate: Date? { ReportDate.parse(timings.finished) }
}

/// Parses the reports' timestamps (`2026-11-22T05:19:34.997Z`, UTC) without a formatter: a
/// formatter per date costs more than the rest of reading a report.
enum ReportDate {
    static func parse(_ text: String) -> Date? {
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
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
