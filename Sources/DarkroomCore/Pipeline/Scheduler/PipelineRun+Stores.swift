import Foundation

/// Compact stores: a random-access node keeps its input whole, compact, filled in row order.
extension PipelineRun {
    /// Fills node `n`'s compact copy of its input down to row `rows`, band by band, in order.
    func fill(_ n: Int, from input: Int, through rows: Int) throws {
        let store = stores[n]!
        let inputSize = pipeline.nodes[input].size
        let direct = directStore == n
        condition.lock()
        while true {
            if let failure { condition.unlock(); throw failure }
            if storeFilled[n] >= rows { condition.unlock(); return }
            if storeBusy[n] { condition.wait(); continue }
            let band = storeFilled[n] / bandHeight
            let rect = BandPlan.bandRect(inputSize, band, bandHeight)
            claimWorkPublish(claim: { storeBusy[n] = true }, work: {
                if direct {
                    try checkDeadline()
                    let start = Deadline.now()
                    let rowBytes = inputSize.width * 3
                    try (source as! any CompactRowSource).readRGB8Rows(
                        count: rect.height, into: (store.storage + rect.y * rowBytes).assumingMemoryBound(to: UInt8.self),
                        rowBytes: rowBytes)
                    account(0, since: start)
                } else {
                    let pixels = try acquire(input, band)
                    for r in 0..<rect.height {
                        store.store(row: rect.y + r, from: pixels + r * strides[input] + pads[input], count: inputSize.width)
                    }
                    release(input, band)
                }
            }, publish: { filled in
                storeBusy[n] = false
                if filled != nil { storeFilled[n] = rect.maxY }
            })
        }
    }
}
