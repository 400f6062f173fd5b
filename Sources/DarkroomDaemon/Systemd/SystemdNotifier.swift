import Foundation
import Glibc

/// Talks to systemd through `$NOTIFY_SOCKET` (the `sd_notify` protocol): one unix datagram per
/// message, `KEY=value` lines. Does nothing when the variable is unset (not run by systemd).
public struct SystemdNotifier: Sendable {
    /// The socket path; a leading `@` names an abstract socket.
    public let socketPath: String?
    /// How often to send `WATCHDOG=1` (half of `$WATCHDOG_USEC`), when systemd asked for it.
    public let watchdogInterval: Double?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        var interval: Double?
        if path != nil, let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0 {
            // WATCHDOG_PID, when set, names the process the watchdog is meant for.
            let pid = environment["WATCHDOG_PID"].flatMap(Int32.init)
            if pid == nil || pid == getpid() { interval = Double(usec) / 2e6 }
        }
        watchdogInterval = interval
    }

    /// Sends `state` (`READY=1`, `STATUS=…`, …). Best effort: a lost notification must never
    /// stop the daemon, so errors are returned for logging, not thrown, and a socket whose
    /// reader is behind (its queue full) refuses at once (`EAGAIN`) instead of blocking.
    @discardableResult
    public func send(_ state: String) -> FileError? {
        guard let socketPath else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return FileError("open notify socket", socketPath, errno: errno) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return FileError("use notify socket", socketPath, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        // Abstract names are exactly their bytes; file names end with the NUL.
        let length = socklen_t(pathOffset + pathBytes.count + (abstract ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, message.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), sa, length) }
            }
        }
        return sent < 0 ? FileError("notify systemd through", socketPath, errno: errno) : nil
    }

    /// Microseconds on the monotonic clock, for `RELOADING=1` (`MONOTONIC_USEC=`).
    public static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
