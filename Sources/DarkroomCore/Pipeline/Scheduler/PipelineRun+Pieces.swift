import Foundation

/// Column pieces: a band's kernel call cut into pieces across its width, so that a thread with
/// no strip of its own helps with the strip in play instead of starting another one (which
/// would hold that strip's bands too: see ``StripExecutor/stripsInPlay``).
extension PipelineRun {
    /// The pieces of one kernel call that threads may take; guarded by the run's condition.
    final class Pieces {
        let count: Int
        let render: (Int) -> Void
        var taken = 0
        var done = 0
        var nanoseconds: UInt64 = 0
        init(count: Int, render: @escaping (Int) -> Void) {
            self.count = count
            self.render = render
        }
    }

    /// Narrowest piece worth a hand-off (a lock, a wake-up) between threads.
    static let narrowestPiece = 64

    /// `rect` cut into column pieces, one per thread and one more per thread for balance, or
    /// `rect` alone when there is one thread or it is narrow, when `kernel` does not take
    /// pieces, or when a piece would read past what the whole call's `regions` hold
    /// (`pieceRegions` gives a piece's).
    func pieces(of rect: Rect, for kernel: any PixelKernel, within regions: [Rect], pieceRegions: (Rect) -> [Rect]) -> [Rect] {
        guard kernel.rendersInColumnPieces else { return [rect] }
        let pieces = Self.columns(of: rect, threads: threads)
        guard pieces.count > 1 else { return pieces }
        for piece in pieces {
            for (whole, part) in zip(regions, pieceRegions(piece)) where !whole.contains(part) || part.isEmpty != whole.isEmpty {
                return [rect]
            }
        }
        return pieces
    }

    /// `rect` cut across into two pieces per thread, each at least ``narrowestPiece`` wide
    /// (`rect` alone when it cannot be cut).
    static func columns(of rect: Rect, threads: Int) -> [Rect] {
        let count = min(2 * threads, rect.width / narrowestPiece)
        guard threads > 1, count > 1 else { return [rect] }
        return (0..<count).map { i in
            let x0 = rect.x + rect.width * i / count, x1 = rect.x + rect.width * (i + 1) / count
            return Rect(x: x0, y: rect.y, width: x1 - x0, height: rect.height)
        }
    }

    /// Calls `render(i)` for every piece `i < count`, on this thread and on any thread that
    /// helps (``helpWithPiece()``), and returns when all are done, with the time they took
    /// together (the node's CPU time, whichever threads gave it).
    func renderPieces(_ count: Int, _ render: (Int) -> Void) -> UInt64 {
        guard count > 1 else {
            let start = Deadline.now()
            render(0)
            return Deadline.now() - start
        }
        return withoutActuallyEscaping(render) { render in
            let work = Pieces(count: count, render: render)
            condition.lock()
            offered.append(work)
            condition.broadcast()
            while work.taken < count {
                let i = work.taken
                work.taken += 1
                if work.taken == count { offered.removeAll { $0 === work } }
                condition.unlock()
                let start = Deadline.now()
                render(i)
                let took = Deadline.now() - start
                condition.lock()
                work.done += 1
                work.nanoseconds += took
            }
            // The pieces other threads took: they write this call's band, so wait for them.
            while work.done < count { condition.wait() }
            condition.unlock()
            return work.nanoseconds
        }
    }

    /// Called with the lock held, by a thread that has nothing else to do: takes one piece of a
    /// kernel call in progress and renders it. Returns with the lock held; false if none was offered.
    func helpWithPiece() -> Bool {
        guard let work = offered.first else { return false }
        let i = work.taken
        work.taken += 1
        if work.taken == work.count { offered.removeFirst() }
        condition.unlock()
        let start = Deadline.now()
        work.render(i)
        let took = Deadline.now() - start
        condition.lock()
        work.done += 1
        work.nanoseconds += took
        if work.done == work.count { condition.broadcast() }
        return true
    }
}

extension Rect {
    /// Whether every pixel of `other` lies in this rectangle (an empty one lies anywhere).
    func contains(_ other: Rect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }
}

extension RegionView {
    /// A view of `part` of this view's rectangle (which must contain it), its row pointers in
    /// `rows` (`part.height` of them), reads outside `part` flagged in `overreach`.
    func subview(_ part: Rect, rows: UnsafeMutablePointer<UnsafePointer<Pixel>>,
                 overreach: UnsafeMutablePointer<Bool>) -> RegionView {
        for i in 0..<part.height { rows[i] = self.rows[part.y - rect.y + i] + (part.x - rect.x) }
        return RegionView(rect: part, rows: rows, overreach: overreach)
    }
}
