import Foundation

/// The decoder driver: source bands are decoded in order, by whichever thread needs the next one
/// or by the helper that reads ahead of demand; bands nobody reads are dropped at once.
extension PipelineRun {
    /// Decodes the next source band ahead of demand, if the decoder is idle and fewer than
    /// `readAhead` decoded bands wait for their consumers (or, when it fills a compact copy
    /// directly, the next band of that copy). Lets one thread keep the sequential
    /// decoder busy while the others filter and encode (libvips' sequential read-ahead).
    /// Returns false when there was nothing to do.
    func decodeAhead(readAhead: Int) -> Bool {
        condition.lock()
        if let n = directStore {
            // The decoder fills a compact copy of the whole input, held from the start anyway.
            let height = pipeline.nodes[0].size.height
            guard failure == nil, !storeBusy[n], storeFilled[n] < height else {
                condition.unlock()
                return false
            }
            let rows = min(storeFilled[n] + bandHeight, height)
            condition.unlock()
            try? fill(n, from: 0, through: rows)  // an error is the run's failure, which every thread sees
            return true
        }
        guard directStore == nil, failure == nil, !sourceBusy, nextSourceBand < states[0].count,
              nextSourceBand - sourceFreedPrefix < readAhead else {
            condition.unlock()
            return false
        }
        runDecoder(through: nextSourceBand)
        condition.unlock()
        return true
    }

    /// Called with the lock held and the decoder idle: decodes the next source bands up to `k`
    /// outside the lock, and returns with it held again, any error recorded as the run's failure.
    func runDecoder(through k: Int) {
        let first = nextSourceBand
        claimWorkPublish(claim: { sourceBusy = true }, work: { try decode(from: first, through: k) },
                         publish: { _ in sourceBusy = false })
    }

    /// Decodes source bands in order up to `k`; bands nobody needs are dropped at once.
    func decode(from first: Int, through k: Int) throws {
        let size = pipeline.nodes[0].size, pad = pads[0], stride = strides[0]
        for b in first...k {
            try checkDeadline()
            let rect = BandPlan.bandRect(size, b, bandHeight)
            let pixels = memory.pixels(bandPixels(0))
            let start = Deadline.now()
            do {
                if rgb8Reader != nil {
                    try (source as! any CompactRowSource).readRGB8Rows(
                        count: rect.height, into: UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self),
                        rowBytes: rgb8RowBytes)
                } else {
                    try source.readRows(count: rect.height, into: pixels + pad, stride: stride)
                    finish(0, pixels, rows: rect.height)
                }
            } catch {
                memory.release(pixels, count: bandPixels(0))
                throw error
            }
            let end = Deadline.now()
            condition.lock()
            nanoseconds[0] += end - start
            decoding.record(from: start, to: end)
            if uses[0][b] > 0 {
                states[0][b] = .ready(pixels)
            } else {
                memory.release(pixels, count: bandPixels(0))
                states[0][b] = .released
                advanceFreedPrefix()
            }
            nextSourceBand = b + 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
