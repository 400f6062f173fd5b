import DarkroomCodecs
@testable import DarkroomCore
import Foundation
import Glibc
import DarkroomTestSupport
import XCTest

/// A scratch tree for one end-to-end test: inbox, outputs, done, failed, reports and a config.
final class Scratch {
    private let folder = TemporaryFolder(prefix: "darkroom-e2e")
    var root: String { folder.path }

    func path(_ relative: String) -> String { root + "/" + relative }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    func read(_ relative: String) -> [UInt8]? { FileManager.default.contents(atPath: path(relative)).map(Array.init) }

    /// Regular files below `relative`, sorted, hidden ones included.
    func files(in relative: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: path(relative)) else { return [] }
        var out = [String]()
        while let item = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path(relative) + "/" + item, isDirectory: &isDir), !isDir.boolValue {
                out.append(item)
            }
        }
        return out.sorted()
    }

    func makeFolder(_ relative: String) {
        try? FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    /// Writes a file in place, in a few pieces, the way `cp` does (the watcher sees it grow).
    func writeInPlace(_ relative: String, _ bytes: [UInt8]) {
        makeFolder(String(relative.split(separator: "/").dropLast().joined(separator: "/")))
        let fd = open(path(relative), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(relative)")
        let step = max(1, bytes.count / 3)
        var offset = 0
        while offset < bytes.count {
            let n = min(step, bytes.count - offset)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, n) }
            offset += n
        }
        close(fd)
    }

    /// Writes outside the inbox, on the same file system, then renames into place.
    func writeAndRename(_ relative: String, _ bytes: [UInt8]) {
        makeFolder("staging")
        let staged = path("staging/" + UUID().uuidString)
        _ = FileManager.default.createFile(atPath: staged, contents: Data(bytes))
        precondition(rename(staged, path(relative)) == 0, "rename failed")
    }

    func writeConfig(_ yaml: String) { writeInPlace("config.yaml", Array(yaml.utf8)) }

    /// The report at `relative` as `jq` sees it.
    func report(_ relative: String) -> [String: Any]? {
        guard let bytes = read(relative) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}

/// The real `darkroom` binary, run as a child process with its stderr in a file and a notify
/// socket standing in for systemd.
final class DaemonProcess {
    let process = Process()
    let logPath: String
    let notifySocket: Int32
    private(set) var messages = [String]()

    /// The binary sits next to the test bundle in `.build/<config>/` (EndToEndTests depends on
    /// the `darkroom` target, so `swift test` builds it). `DARKROOM_BIN` overrides.
    static func binaryPath() throws -> String {
        if let given = ProcessInfo.processInfo.environment["DARKROOM_BIN"] { return given }
        var folders = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let exe = Bundle.main.executableURL { folders.append(exe.deletingLastPathComponent()) }
        for folder in folders {
            var url = folder
            for _ in 0..<4 {
                let candidate = url.appendingPathComponent("darkroom").path
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue { return candidate }
                url.deleteLastPathComponent()
            }
        }
        throw TestEnvironment.unavailable("the darkroom binary next to the tests (swift build builds it) or DARKROOM_BIN")
    }

    init(scratch: Scratch, arguments: [String], environment extra: [String: String] = [:]) throws {
        logPath = scratch.path("daemon.log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let socketPath = scratch.path("notify-\(UUID().uuidString.prefix(8)).sock")
        notifySocket = try Self.listen(at: socketPath)
        process.executableURL = URL(fileURLWithPath: try Self.binaryPath())
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socketPath
        environment.removeValue(forKey: "JOURNAL_STREAM")
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let log = FileHandle(forWritingAtPath: logPath)
        log?.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = log
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        close(notifySocket)
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits for a notification containing `text` (READY=1 …).
    func waitForNotification(_ text: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if messages.contains(where: { $0.contains(text) }) { return true }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(notifySocket, &buffer, buffer.count, 0)
            if n > 0 { messages.append(String(decoding: buffer[..<n], as: UTF8.self)) }
            if !process.isRunning && n <= 0 { return false }
        }
        return messages.contains { $0.contains(text) }
    }

    /// How many notifications received so far contain `text` (reads what is waiting first).
    func notifications(matching text: String) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(notifySocket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { break }
            messages.append(String(decoding: buffer[..<n], as: UTF8.self))
        }
        return messages.filter { $0.contains(text) }.count
    }

    /// Sends `signal` to this daemon (and no other process).
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit status once the process ended, or nil if it is still running after `seconds`.
    func waitForExit(seconds: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    private static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard fd >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw TestEnvironment.unavailable("a notify socket at \(path) (a path short enough for sockaddr_un)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { throw TestEnvironment.unavailable("a notify socket bound at \(path)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }
}

/// One of the daemon's test barriers (Sources/DarkroomDaemon/Support/TestBarrier.swift): the
/// first job to reach `point` waits there until ``release()``, so a test acts at that moment
/// every time, on a slow machine or a fast one.
struct Barrier {
    let folder: String
    let point: String

    /// Arms `point` ("report-check", "rendered") for a daemon started with ``environment``.
    init(_ s: Scratch, _ point: String) {
        folder = s.path("barriers")
        self.point = point
        s.makeFolder("barriers")
        _ = FileManager.default.createFile(atPath: "\(folder)/\(point).armed", contents: nil)
    }

    var environment: [String: String] { ["DARKROOM_TEST_BARRIERS": folder] }

    /// Whether a job reached the point (and waits there) within `seconds`.
    func reached(seconds: Double = 30) -> Bool {
        eventually(seconds: seconds) { FileManager.default.fileExists(atPath: "\(folder)/\(point).reached") }
    }

    /// Lets the waiting job go on.
    func release() { _ = FileManager.default.createFile(atPath: "\(folder)/\(point).go", contents: nil) }
}

/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
@discardableResult
func eventually(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}

/// Polls `condition` until it holds, for as long as `progress` keeps changing: gives up only
/// when it has not changed for `stalled` seconds (or after `limit`). For work whose amount is
/// known but whose speed follows the machine's load (thousands of files), so a slow machine
/// is waited for and a stuck daemon still fails.
@discardableResult
func eventually(whileProgressing progress: () -> Int, stalled: Double = 20, limit: Double = 600,
                _ condition: () -> Bool) -> Bool {
    let start = Date()
    var last = progress(), lastChange = Date()
    while Date().timeIntervalSince(lastChange) < stalled, Date().timeIntervalSince(start) < limit {
        if condition() { return true }
        usleep(50_000)
        let now = progress()
        if now != last { last = now; lastChange = Date() }
    }
    return condition()
}

/// A generated picture as PNG or JPEG bytes.
func picture(width: Int, height: Int, format: ImageFormat) throws -> [UInt8] {
    let image = Image(width: width, height: height) { x, y in
        Pixel(Float(x % 17) / 16, Float(y % 13) / 12, 0.4, 1)
    }
    return try ImageCodec.encode(image, options: EncodeOptions(format: format))
}

/// Starting, stopping and watching the daemon, and the tmpfs mounts the disk tests need.
extension XCTestCase {
    /// `darkroom run` on the scratch tree's config, once it sent READY=1.
    func start(_ s: Scratch, environment: [String: String] = [:]) throws -> DaemonProcess {
        let daemon = try DaemonProcess(scratch: s, arguments: ["run", "--config", s.path("config.yaml")], environment: environment)
        guard daemon.waitForNotification("READY=1") else { throw DaemonDidNotStart(log: daemon.log) }
        return daemon
    }

    func stop(_ daemon: DaemonProcess) {
        // Read what waits on the notify socket first: a full socket queue (10 datagrams by
        // default) would make the daemon drop STOPPING=1, as systemd never lets it fill.
        _ = daemon.notifications(matching: "STOPPING=1")
        daemon.send(SIGTERM)
        XCTAssertEqual(daemon.waitForExit(), 0, "SIGTERM should end the daemon with 0; log:\n\(tail(daemon))")
        XCTAssertTrue(daemon.waitForNotification("STOPPING=1", seconds: 1), "systemd hears STOPPING=1")
    }

    /// The last lines of the log, enough to see why a wait failed without flooding the output.
    func tail(_ daemon: DaemonProcess) -> String { daemon.log.split(separator: "\n").suffix(30).joined(separator: "\n") }

    /// Mounts a small tmpfs at `folder`, or skips the test when this machine does not allow it.
    func mountTmpfs(_ folder: String, options: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard mount("tmpfs", folder, "tmpfs", 0, options) == 0 else {
            throw TestEnvironment.unavailable("a tmpfs mounted at \(folder) (\(String(cString: strerror(errno)))): this test needs root")
        }
        addTeardownBlock { umount2(folder, Int32(MNT_DETACH)) }
    }
}
