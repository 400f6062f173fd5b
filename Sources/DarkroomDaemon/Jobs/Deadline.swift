import Dispatch

/// The moment a job must be finished by (`limits.max_seconds` after it started), on the
/// monotonic clock. Checked between outputs, and by the rendering between its steps.
public struct Deadline: Sendable {
    public let uptimeNanoseconds: UInt64

    public init(secondsFromNow seconds: Double) {
        let now = DispatchTime.now().uptimeNanoseconds
        uptimeNanoseconds = seconds >= Double(UInt64.max - now) / 1e9 ? .max : now + UInt64(seconds * 1e9)
    }

    /// No deadline at all.
    public static let never = Deadline(uptimeNanoseconds: .max)

    private init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }

    public var isPast: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }
}
