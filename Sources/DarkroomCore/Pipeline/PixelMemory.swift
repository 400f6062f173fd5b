import Foundation

/// Counts the pixel memory a render holds: every band, scratch buffer and compact image is
/// allocated through it, so the peak is known exactly (reported per job, and what the
/// daemon's memory budget estimates).
public final class PixelMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var highest = 0

    public init() {}

    /// The most bytes held at once so far.
    public var peakBytes: Int { lock.withLock { highest } }
    /// The bytes held now.
    public var currentBytes: Int { lock.withLock { current } }

    func allocated(_ bytes: Int) {
        lock.withLock {
            current += bytes
            highest = max(highest, current)
        }
    }

    func freed(_ bytes: Int) { lock.withLock { current -= bytes } }

    /// `count` pixels, uninitialised, counted until `release`.
    func pixels(_ count: Int) -> UnsafeMutablePointer<Pixel> {
        allocated(max(count, 1) * MemoryLayout<Pixel>.stride)
        return UnsafeMutablePointer<Pixel>.allocate(capacity: max(count, 1))
    }

    func release(_ pointer: UnsafeMutablePointer<Pixel>, count: Int) {
        pointer.deallocate()
        freed(max(count, 1) * MemoryLayout<Pixel>.stride)
    }
}
