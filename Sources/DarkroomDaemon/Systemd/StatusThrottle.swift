import Dispatch

/// Decides when systemd's `STATUS=` line is worth sending again: when it changed, and at most
/// once per `minimumSeconds`, so thousands of files a minute cost a handful of datagrams.
struct StatusThrottle {
    var minimumSeconds = 1.0
    private var lastLine: String?
    private var lastSent: UInt64 = 0

    /// `line` when it should be sent now (and it is then taken as sent), else nil.
    mutating func due(_ line: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String? {
        guard line != lastLine, lastLine == nil || Double(now - lastSent) / 1e9 >= minimumSeconds else { return nil }
        lastLine = line
        lastSent = now
        return line
    }
}
