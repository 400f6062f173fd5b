import Foundation
import DarkroomDaemon

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

    var startedDate: Date? { ISOTime.parseUTC(timings.started) }
    var finishedDate: Date? { ISOTime.parseUTC(timings.finished) }
}
