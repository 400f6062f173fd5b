import DarkroomDaemon
import Foundation

/// One report as the contact sheet's page reads it (JSON in the page): what was processed,
/// how it ended, each output's chain with the values drawn at random, and the timings. The
/// thumbnails are numbered: the input's is `thumbnail`, the outputs' follow it in order.
struct ContactSheetEntry: Encodable {
    struct Output: Encodable {
        var path: String
        var format: String
        var width, height, bytes: Int
        var seed: UInt64
        var chain: [JobReport.ChainStep]
    }

    var watch: String
    var status: String
    /// Where the input was when it was processed.
    var input: String
    /// Where it is now, when found elsewhere (set once the thumbnails are made).
    var now: String?
    var finished: String
    var error: ReportError?
    var format: String?
    var width, height: Int?
    var bytes: Int
    var warning: String?
    var outputs: [Output]
    /// Seconds: the whole job, decoding, encoding, and waiting in the queue before it started.
    var total, decode, encode, waited: Double
    var thumbnail = 0

    /// Not in the page: the order and where to look for the input.
    let finishedDate: Date
    let sha256: String?
    let reportStatus: JobReport.Status
    /// The daemon's pictures of the input and of each output (nil where it wrote none).
    let inputThumbnail: ReportThumbnail?
    let outputThumbnails: [ReportThumbnail?]

    init(_ r: JobReport) {
        (watch, status, input, error, bytes) = (r.watch, r.status.rawValue, r.input.path, r.error, r.input.bytes)
        (format, width, height, warning) = (r.input.format, r.input.width, r.input.height, r.input.warning)
        outputs = r.outputs.map { Output(path: $0.path, format: $0.format, width: $0.width, height: $0.height, bytes: $0.bytes,
                                         seed: $0.seed, chain: $0.chain) }
        (total, decode, encode) = (r.timings.total, r.timings.decode, r.timings.encode)
        waited = max(0, r.timings.started.timeIntervalSince(r.timings.queued))
        finished = ISOTime.format(r.timings.finished)
        (finishedDate, sha256, reportStatus) = (r.timings.finished, r.input.sha256, r.status)
        (inputThumbnail, outputThumbnails) = (r.input.thumbnail, r.outputs.map(\.thumbnail))
    }

    /// Failures first, then the rest; the most recent first within each.
    static func precedes(_ a: ContactSheetEntry, _ b: ContactSheetEntry) -> Bool {
        let (af, bf) = (a.reportStatus == .failed, b.reportStatus == .failed)
        if af != bf { return af }
        if a.finishedDate != b.finishedDate { return a.finishedDate > b.finishedDate }
        return a.input < b.input
    }

    enum CodingKeys: String, CodingKey {
        case watch, status, input, now, finished, error, format, width, height, bytes, warning, outputs
        case total, decode, encode, waited, thumbnail
    }
}
