import Foundation

/// Views of a node's bands for one kernel call: row pointers into the bands, the padding
/// answering short reads past the left and right edges, copies for reads further out.
extension PipelineRun {
    /// Bands held for one kernel call, and the row pointers (and any copied rows) of its view.
    struct Lease {
        let node: Int
        let bands: ClosedRange<Int>?
        let rows: UnsafeMutablePointer<UnsafePointer<Pixel>>
        let scratch: UnsafeMutablePointer<Pixel>?
        let scratchCount: Int
        var view: RegionView { RegionView(rect: rect, rows: rows, overreach: overreach) }
        let rect: Rect
        /// Set by the view when the kernel read outside `rect`.
        let overreach: UnsafeMutablePointer<Bool>
    }

    /// A view of `rect` of node `n`'s output, reads outside it answered by `edge`.
    func lease(_ n: Int, _ rect: Rect, _ edge: EdgeMode) throws -> Lease {
        let size = pipeline.nodes[n].size
        let range = BandPlan.touched(size, rect, edge, bandHeight)
        var bases = [UnsafeMutablePointer<Pixel>]()
        if let range {
            do {
                for k in range { bases.append(try acquire(n, k)) }
            } catch {
                for k in range.lowerBound..<(range.lowerBound + bases.count) { release(n, k) }
                throw error
            }
        }
        let pad = pads[n], stride = strides[n], h = bandHeight
        let height = max(rect.height, 1)
        let rows = UnsafeMutablePointer<UnsafePointer<Pixel>>.allocate(capacity: height)
        func source(_ y: Int) -> UnsafeMutablePointer<Pixel>? {
            guard let range else { return nil }
            guard let yy = edge.index(y, extent: size.height) else { return nil }
            let k = yy / h
            return bases[k - range.lowerBound] + ((yy - k * h) * stride + pad)
        }
        let inside = rect.x >= 0 && rect.maxX <= size.width
        let inPad = rect.x >= -pad && rect.maxX <= size.width + pad && edge == padEdges[n]
        var scratch: UnsafeMutablePointer<Pixel>?
        var scratchCount = 0
        if inside || inPad {
            // Rows point into the bands; rows past a transparent edge share one zero row.
            var zero: UnsafePointer<Pixel>?
            for i in 0..<rect.height {
                if let row = source(rect.y + i) {
                    rows[i] = UnsafePointer(row + rect.x)
                } else {
                    if zero == nil {
                        scratchCount = rect.width
                        let z = memory.pixels(scratchCount)
                        z.initialize(repeating: .zero, count: max(scratchCount, 1))
                        scratch = z
                        zero = UnsafePointer(z)
                    }
                    rows[i] = zero!
                }
            }
        } else {
            // Far past the padding: copy the rows, with their edges extended as `edge` says.
            scratchCount = rect.width * rect.height
            let copy = memory.pixels(scratchCount)
            scratch = copy
            let lastX = size.width - 1
            for i in 0..<rect.height {
                let out = copy + i * rect.width
                rows[i] = UnsafePointer(out)
                guard let row = source(rect.y + i) else {
                    out.initialize(repeating: .zero, count: rect.width)
                    continue
                }
                for x in 0..<rect.width {
                    let xx = rect.x + x
                    if xx >= 0 && xx <= lastX {
                        (out + x).initialize(to: row[xx])
                    } else if let mapped = edge.index(xx, extent: size.width) {
                        (out + x).initialize(to: row[mapped])
                    } else {
                        (out + x).initialize(to: .zero)
                    }
                }
            }
        }
        let overreach = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        overreach.initialize(to: false)
        return Lease(node: n, bands: range, rows: rows, scratch: scratch, scratchCount: scratchCount, rect: rect,
                     overreach: overreach)
    }

    func end(_ lease: Lease) {
        lease.rows.deallocate()
        lease.overreach.deallocate()
        if let scratch = lease.scratch { memory.release(scratch, count: lease.scratchCount, reusable: false) }
        if let bands = lease.bands { for k in bands { release(lease.node, k) } }
    }

    /// Calls `body` with band `k` of node `n`, an 8-bit RGB band (``rgb8Writer``), held meanwhile.
    func withRGB8Band<T>(_ n: Int, _ k: Int, _ body: (RGB8RegionView) -> T) throws -> T {
        let rect = BandPlan.bandRect(pipeline.nodes[n].size, k, bandHeight)
        let base = UnsafeMutableRawPointer(try acquire(n, k)).assumingMemoryBound(to: UInt8.self)
        defer { release(n, k) }
        let rowBytes = sizes.rgb8OutputRowBytes
        let rows = (0..<rect.height).map { UnsafePointer(base + $0 * rowBytes) }
        return rows.withUnsafeBufferPointer { body(RGB8RegionView(rect: rect, rows: $0.baseAddress!)) }
    }
}
