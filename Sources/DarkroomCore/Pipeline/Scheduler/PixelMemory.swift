import Foundation

/// Counts the pixel memory a render holds: every band, scratch buffer and compact image is
/// allocated through it, so the peak is known exactly (reported per job, and what the
/// daemon's memory budget estimates).
///
/// Released buffers are kept for reuse by the next request of the same size (bands of a node
/// all have one size), so a render touches fresh pages only while its working set grows:
/// freeing and reallocating megabyte bands let the allocator hand pages back to the kernel and
/// fault them in again. Kept buffers still count as held, so the peak stays honest.
final class PixelMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var highest = 0
    private var spare = [Int: [UnsafeMutablePointer<Pixel>]]()

    init() {}

    deinit {
        for buffers in spare.values { for buffer in buffers { buffer.deallocate() } }
    }

    /// The most bytes held at once so far.
    var peakBytes: Int { lock.withLock { highest } }

    func allocated(_ bytes: Int) {
        lock.withLock {
            current += bytes
            highest = max(highest, current)
        }
    }

    func freed(_ bytes: Int) { lock.withLock { current -= bytes } }

    /// `count` pixels, uninitialised (or holding an earlier use's values), until `release`.
    func pixels(_ count: Int) -> UnsafeMutablePointer<Pixel> {
        let n = max(count, 1)
        if let reused = lock.withLock({ spare[n]?.popLast() }) { return reused }
        allocated(n * MemoryLayout<Pixel>.stride)
        return UnsafeMutablePointer<Pixel>.allocate(capacity: n)
    }

    /// Gives `pointer` back. A band is kept for reuse (and stays counted until the render
    /// ends); a scratch buffer of a one-off size is freed at once, or such sizes would pile up.
    func release(_ pointer: UnsafeMutablePointer<Pixel>, count: Int, reusable: Bool = true) {
        let n = max(count, 1)
        guard reusable else {
            pointer.deallocate()
            freed(n * MemoryLayout<Pixel>.stride)
            return
        }
        lock.withLock { spare[n, default: []].append(pointer) }
    }
}
