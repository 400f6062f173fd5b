import Foundation

/// A moment on the monotonic clock (`CLOCK_MONOTONIC`, the codecs' clock too) after which a
/// render stops with ``PipelineError/timedOut``; and the render's ``Cancellation``, if its owner
/// may stop it sooner (``PipelineError/cancelled``).
public struct Deadline: Sendable, Hashable {
    package let nanoseconds: UInt64
    let cancellation: Cancellation?

    init(nanoseconds: UInt64, cancellation: Cancellation? = nil) {
        self.nanoseconds = nanoseconds
        self.cancellation = cancellation
    }

    /// `seconds` from now.
    public static func after(seconds: Double, cancellation: Cancellation? = nil) -> Deadline {
        Deadline(nanoseconds: now() &+ UInt64(max(0, min(seconds, 1e9)) * 1e9), cancellation: cancellation)
    }

    public var isCancelled: Bool { cancellation?.isCancelled ?? false }

    public var hasPassed: Bool { Self.now() > nanoseconds }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}

/// Why a render stopped without its own error (a decoder's or encoder's error is rethrown as is).
public enum PipelineError: Error, Sendable, Equatable {
    /// The ``Deadline`` passed.
    case timedOut
    /// The render's owner cancelled it (``Cancellation``): not a failure of the file.
    case cancelled
    /// A kernel read pixels outside the region it declared (a bug in that filter, named here).
    case kernelReadOutsideItsRegion(String)
    /// A kernel cannot render (``PixelKernel/failure``): a graphic that could not be drawn.
    case kernelCannotRender(String)
}

extension PipelineError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .timedOut: "the time limit passed"
        case .cancelled: "cancelled"
        case .kernelCannotRender(let why): why
        case .kernelReadOutsideItsRegion(let kernel):
            "internal error: \(kernel) read pixels outside the region it declared; please report this with the chain"
        }
    }
}
