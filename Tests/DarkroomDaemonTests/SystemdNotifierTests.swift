import Foundation
import Glibc
import DarkroomTestSupport
import XCTest
@testable import DarkroomDaemon

final class SystemdNotifierTests: XCTestCase {
    /// A datagram socket standing in for systemd's notify socket.
    func listen(at name: String, abstract: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes.insert(0, at: 0) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(2 + bytes.count + (abstract ? 0 : 1))
        let rc = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        XCTAssertEqual(rc, 0, String(cString: strerror(errno)))
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    func receive(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
    }

    func testSendsToAFileSocket() throws {
        let folder = TemporaryFolder()
        let path = folder.file("notify.sock")
        let fd = try listen(at: path, abstract: false)
        defer { close(fd) }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        XCTAssertNil(notifier.send("READY=1\nSTATUS=0 processed"))
        XCTAssertEqual(receive(fd), "READY=1\nSTATUS=0 processed")
    }

    func testSendsToAnAbstractSocket() throws {
        let name = "darkroom-test-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        let fd = try listen(at: name, abstract: true)
        defer { close(fd) }
        XCTAssertNil(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name]).send("STOPPING=1"))
        XCTAssertEqual(receive(fd), "STOPPING=1")
    }

    func testWatchdogIntervalIsHalfOfWhatSystemdAsks() {
        let env = ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000"]
        XCTAssertEqual(SystemdNotifier(environment: env).watchdogInterval, 15)
        var other = env
        other["WATCHDOG_PID"] = "1"
        XCTAssertNil(SystemdNotifier(environment: other).watchdogInterval, "meant for another process")
        XCTAssertNil(SystemdNotifier(environment: [:]).watchdogInterval)
        XCTAssertNil(SystemdNotifier(environment: [:]).send("READY=1"), "without systemd, nothing to do")
    }

    func testAReaderThatIsBehindNeverBlocksTheSender() throws {
        let folder = TemporaryFolder()
        let path = folder.file("notify.sock")
        let fd = try listen(at: path, abstract: false)
        defer { close(fd) }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        // Nobody reads: the socket's queue fills after a few hundred datagrams.
        let done = DispatchSemaphore(value: 0)
        let refused = Locked(0)
        DispatchQueue.global().async {
            for i in 0..<5000 where notifier.send("STATUS=\(i) processed") != nil { refused.withLock { $0 += 1 } }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "send blocked on a full notify socket")
        XCTAssertGreaterThan(refused.current, 0, "a full queue is reported, not waited for")
        XCTAssertEqual(receive(fd), "STATUS=0 processed", "what fitted was delivered")
    }
}

final class StatusThrottleTests: XCTestCase {
    func testSendsChangesAtMostOncePerInterval() {
        var throttle = StatusThrottle()
        let second: UInt64 = 1_000_000_000
        XCTAssertEqual(throttle.due("1 processed", now: 10 * second), "1 processed", "the first line goes at once")
        XCTAssertNil(throttle.due("2 processed", now: 10 * second + second / 2), "too soon after the last")
        XCTAssertEqual(throttle.due("3 processed", now: 11 * second), "3 processed")
        XCTAssertNil(throttle.due("3 processed", now: 20 * second), "unchanged: nothing to say")
    }
}
