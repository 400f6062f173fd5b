import Dispatch
import Foundation
import Glibc
import Synchronization
import XCTest

/// A signal sent the instant the daemon says it is ready must be handled: `systemctl stop` or
/// `reload` right after `start`. Before ``SignalInbox`` about 1 start in 40 lost its SIGTERM.
final class SignalEndToEndTests: XCTestCase {
    /// How many daemons start (each is sent one signal) and how many run side by side: the load
    /// of several starting at once widens any window in which a signal can be lost.
    private static let starts = 200
    private static let sideBySide = 8

    func testASignalSentTheInstantTheDaemonIsReadyIsNeverLost() throws {
        _ = try DaemonProcess.binaryPath()  // skip early, not 200 times, when it was not built
        let signals = [SIGTERM, SIGINT, SIGHUP]
        let failures = Mutex<[String]>([])
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: Self.sideBySide) { _ in
            while true {
                let i: Int = next.withLock { n in defer { n += 1 }; return n }
                guard i < Self.starts else { return }
                if let failure = Self.startAndSignal(signals[i % signals.count]) {
                    failures.withLock { $0.append("start \(i): \(failure)") }
                }
            }
        }
        let lost = failures.withLock { $0 }
        XCTAssertEqual(lost.count, 0, "\(lost.count) of \(Self.starts) signals lost:\n" + lost.prefix(5).joined(separator: "\n\n"))
    }

    /// Starts a daemon, sends `sig` as soon as READY=1 arrives, and says what went wrong, if anything.
    private static func startAndSignal(_ sig: Int32) -> String? {
        let s = Scratch()
        s.makeFolder("inbox")
        s.writeConfig("""
            watches:
              - name: w
                path: \(s.path("inbox"))
                reports_dir: \(s.path("reports"))
                outputs:
                  - path: \(s.path("out/{stem}.jpg"))
                    chain:
                      - resize: { width: 16 }
            """)
        let daemon: DaemonProcess
        do {
            daemon = try DaemonProcess(scratch: s, arguments: ["run", "--config", s.path("config.yaml")])
        } catch {
            return "could not start: \(error)"
        }
        guard daemon.waitForNotification("READY=1") else { return "never ready; log:\n\(daemon.log)" }
        daemon.send(sig)
        if sig == SIGHUP {
            // A reload announces itself with RELOADING=1, then READY=1 again once applied.
            guard eventually(seconds: 20, { daemon.notifications(matching: "READY=1") >= 2 }) else {
                daemon.send(SIGKILL)
                return "SIGHUP lost: no reload; log:\n\(daemon.log)"
            }
            guard daemon.notifications(matching: "RELOADING=1") == 1 else { return "no RELOADING=1 for the SIGHUP" }
            daemon.send(SIGTERM)
        }
        guard let status = daemon.waitForExit(seconds: 20) else {
            daemon.send(SIGKILL)
            return "\(sig == SIGHUP ? "SIGTERM after SIGHUP" : "signal \(sig)") lost: still running; log:\n\(daemon.log)"
        }
        return status == 0 ? nil : "exit status \(status); log:\n\(daemon.log)"
    }
}
