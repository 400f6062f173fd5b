/// Something done at once and then every `interval` seconds of a monotonic clock (nanoseconds).
///
/// The first call is always due: monotonic and boot clocks start near zero when the machine
/// boots, so "last done at 0" would mean "not for the first `interval` seconds after boot" on a
/// node started at boot or a fresh CI runner.
struct Periodic: Sendable {
    let interval: Double
    private var last: UInt64?

    init(every interval: Double) { self.interval = interval }

    /// Whether it is due at `now`; when it is, it counts as done at `now`.
    mutating func due(now: UInt64) -> Bool {
        if let last, now < last || Double(now - last) / 1e9 < interval { return false }
        last = now
        return true
    }
}
