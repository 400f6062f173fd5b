import Foundation
import Glibc

/// Named points in a job where an end-to-end test can hold a worker, so that a race (a file
/// swapped while its earlier report is read, rewritten while it renders, a stop while a job is
/// in flight) happens every time instead of when a sleep happens to be long enough.
///
/// Inert unless the environment names a folder in `DARKROOM_TEST_BARRIERS` (the daemon's unit
/// and config never do). A test arms point P by creating `P.armed` in that folder; the first job
/// to reach P claims it (renames it to `P.reached`, holding the job's file name) and waits until
/// `P.go` exists, for at most a minute. Later jobs pass freely.
enum TestBarrier {
    /// The points, in the order a job meets them.
    enum Point: String {
        /// The input is open (and leased); its earlier report is about to be read.
        case reportCheck = "report-check"
        /// The outputs are rendered and written; the report and the input's move are next.
        case rendered
    }

    private static let folder = ProcessInfo.processInfo.environment["DARKROOM_TEST_BARRIERS"]

    /// Holds the calling job at `point` if a test armed it.
    static func pass(_ point: Point, file: String) {
        guard let folder else { return }
        let base = folder + "/" + point.rawValue
        guard rename(base + ".armed", base + ".reached") == 0 else { return }
        try? Data(file.utf8).write(to: URL(fileURLWithPath: base + ".reached"))
        for _ in 0..<6000 where access(base + ".go", F_OK) != 0 { usleep(10_000) }
    }
}
