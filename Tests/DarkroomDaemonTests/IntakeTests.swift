import DarkroomConfig
@testable import DarkroomCore
import DarkroomTestSupport
import Foundation
import Logging
import XCTest
@testable import DarkroomDaemon

/// The intake between watcher and queue: far more files than the queue holds all reach a
/// worker, each once, from one offer (the backlog feeds them in as room appears).
final class IntakeTests: XCTestCase {
    func testFilesBeyondTheQueueWaitInTheBacklogAndEachReachesAWorkerOnce() throws {
        let folder = TemporaryFolder()
        let watch = WatchConfig(name: "w", path: folder.file("in"), settleMilliseconds: 0,
                                doneDirectory: folder.file("done"), failedDirectory: folder.file("failed"),
                                reportsDirectory: folder.file("reports"),
                                outputs: [OutputConfig(pathTemplate: folder.file("out/{stem}.png"), format: .png, chain: ChainSpec([]))])
        let count = 1500  // more than the settle tracker's 1024 and far more than the queue's 4
        let paths = (0..<count).map { folder.write("in/f\($0).png", [1]) }

        let seen = Locked([String: Int]())
        let done = DispatchSemaphore(value: 0)
        let queue = JobQueue<DaemonJob>(capacity: 4, workers: 2) { job in
            let total: Int = seen.withLock { s in
                s[job.path, default: 0] += 1
                return s.count
            }
            try? FileIO.remove(job.path)  // as a move would
            if total == count { done.signal() }
        }
        let intake = Intake(queue: queue, logger: Logger(label: "test"))
        intake.install(WatchSet(layouts: [WatchLayout(watch, among: [watch])], limits: Limits(), configSHA256: ""), capacity: 4)
        intake.offer(paths)
        intake.offer(Array(paths.prefix(10)))  // announced twice: still once each
        intake.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "\(seen.current.count) of \(count) reached a worker")
        intake.stop()
        XCTAssertEqual(seen.current.values.filter { $0 != 1 }.count, 0, "each file once")
    }
}
