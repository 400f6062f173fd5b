import Dispatch

/// Elapsed wall time on the monotonic clock (immune to clock changes).
struct Stopwatch {
    private let start = DispatchTime.now().uptimeNanoseconds

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
