import Dispatch

extension SystemdNotifier {
    /// Sends WATCHDOG=1 when half the watchdog interval has passed since `last` (monotonic ns).
    func feedWatchdog(_ last: inout UInt64) {
        guard let interval = watchdogInterval else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if Double(now - last) / 1e9 >= interval {
            send("WATCHDOG=1")
            last = now
        }
    }
}
