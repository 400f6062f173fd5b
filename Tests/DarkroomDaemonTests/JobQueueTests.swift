import Dispatch
import XCTest
@testable import DarkroomDaemon

final class JobQueueTests: XCTestCase {
    /// A gate the handler waits on, so the test decides when jobs may finish.
    final class Gate: @unchecked Sendable {
        let open = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let done = Locked([String]())

        /// A one-worker queue whose jobs start, wait for the gate, then record themselves.
        func queue(capacity: Int) -> JobQueue<String> {
            JobQueue<String>(capacity: capacity, workers: 1) { [self] job in
                started.signal()
                open.wait()
                done.withLock { $0.append(job) }
            }
        }
    }

    func testRefusesBeyondCapacityAndRunsEverythingAccepted() {
        let gate = Gate()
        let queue = gate.queue(capacity: 2)
        XCTAssertEqual(queue.submit("a", key: "a"), .accepted)
        XCTAssertEqual(gate.started.wait(timeout: .now() + 10), .success, "the first job should start")
        // One job runs; two may wait; the fourth is refused and stays in its folder.
        XCTAssertEqual(queue.submit("b", key: "b"), .accepted)
        XCTAssertEqual(queue.submit("c", key: "c"), .accepted)
        XCTAssertEqual(queue.submit("d", key: "d"), .full)
        XCTAssertEqual(queue.pendingCount, 2)
        XCTAssertEqual(queue.inFlightCount, 1)
        for _ in 0..<3 { gate.open.signal() }
        waitUntil { gate.done.current.count == 3 }
        XCTAssertEqual(gate.done.current, ["a", "b", "c"], "jobs run first in, first out")
    }

    func testSamePathIsQueuedOnceWhileWaitingOrRunning() {
        let gate = Gate()
        let queue = gate.queue(capacity: 10)
        XCTAssertEqual(queue.submit("x", key: "/in/x.jpg"), .accepted)
        XCTAssertEqual(gate.started.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(queue.submit("x again", key: "/in/x.jpg"), .duplicate, "running")
        XCTAssertEqual(queue.submit("y", key: "/in/y.jpg"), .accepted)
        XCTAssertEqual(queue.submit("y again", key: "/in/y.jpg"), .duplicate, "waiting")
        gate.open.signal()
        gate.open.signal()
        waitUntil { gate.done.current.count == 2 }
        XCTAssertEqual(queue.submit("x later", key: "/in/x.jpg"), .accepted, "a finished path may come again")
        gate.open.signal()
        waitUntil { gate.done.current.count == 3 }
    }

    func testNeverRunsMoreThanWorkersAtOnce() {
        let running = Locked((now: 0, most: 0))
        let queue = JobQueue<Int>(capacity: 100, workers: 3) { _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            usleep(2000)
            running.withLock { $0.now -= 1 }
        }
        for i in 0..<40 { XCTAssertEqual(queue.submit(i, key: "\(i)"), .accepted) }
        waitUntil { queue.pendingCount == 0 && queue.inFlightCount == 0 }
        XCTAssertLessThanOrEqual(running.current.most, 3)
        XCTAssertGreaterThanOrEqual(running.current.most, 1)
    }

    func testStopDropsWaitingJobsAndWaitsForRunningOnes() {
        let gate = Gate()
        let queue = gate.queue(capacity: 10)
        _ = queue.submit("running", key: "1")
        XCTAssertEqual(gate.started.wait(timeout: .now() + 10), .success)
        _ = queue.submit("waiting", key: "2")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { gate.open.signal() }
        XCTAssertTrue(queue.stop(waitingUpTo: 30), "the running job finishes within the wait")
        XCTAssertEqual(gate.done.current, ["running"], "the waiting job is left for the next start")
        XCTAssertEqual(queue.submit("late", key: "3"), .stopped)
    }
}

/// Polls `condition` until it holds, failing after `seconds`.
func waitUntil(seconds: Double = 30, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline {
            XCTFail("condition not met within \(seconds) s", file: file, line: line)
            return
        }
        usleep(10_000)
    }
}
