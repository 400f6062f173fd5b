import Foundation

/// The band cache: a band is computed once, by the first thread that needs it, kept while its
/// counted uses last (``BandPlan``) and freed after the last one.
extension PipelineRun {
    /// Band `k` of node `n`, computing it (and what it needs) if no thread has yet.
    func acquire(_ n: Int, _ k: Int) throws -> UnsafeMutablePointer<Pixel> {
        condition.lock()
        while true {
            if let failure { condition.unlock(); throw failure }
            switch states[n][k] {
            case .ready(let pixels):
                condition.unlock()
                return pixels
            case .released:
                condition.unlock()
                preconditionFailure("band \(k) of node \(n) was freed while still needed (use count wrong)")
            case .computing:
                condition.wait()
            case .pending where n == 0:
                if sourceBusy { condition.wait(); continue }
                runDecoder(through: k)
            case .pending:
                claimWorkPublish(claim: { states[n][k] = .computing },
                                 work: { try checkDeadline(); return try compute(n, k) },
                                 publish: { states[n][k] = $0.map(BandState.ready) ?? .pending })
            }
        }
    }

    /// One use of band `k` of node `n` is over; the last frees it.
    func release(_ n: Int, _ k: Int) {
        condition.lock()
        defer { condition.unlock() }
        uses[n][k] -= 1
        if uses[n][k] <= 0, case .ready(let pixels) = states[n][k] {
            memory.release(pixels, count: bandPixels(n))
            states[n][k] = .released
            if n == 0 { advanceFreedPrefix() }
        }
    }

    /// Called with the lock held.
    func advanceFreedPrefix() {
        let before = sourceFreedPrefix
        while sourceFreedPrefix < states[0].count, case .released = states[0][sourceFreedPrefix] { sourceFreedPrefix += 1 }
        // A thread waiting to decode ahead may go on.
        if sourceFreedPrefix != before { condition.broadcast() }
    }

    /// Computes band `k` of kernel node `n` from leases on its inputs.
    func compute(_ n: Int, _ k: Int) throws -> UnsafeMutablePointer<Pixel> {
        let node = pipeline.nodes[n]
        let rect = BandPlan.bandRect(node.size, k, bandHeight)
        switch node.producer {
        case .source:
            preconditionFailure("the source is decoded, not computed")
        case .kernel(let kernel as any RGB8OutputKernel, _) where n == rgb8Writer:
            let (bytes, took) = try withRGB8Input(of: kernel, node: n, for: rect) { input, part, band in
                let origin = UnsafeMutableRawPointer(band).assumingMemoryBound(to: UInt8.self) + 3 * (part.x - rect.x)
                kernel.render(rgb8: input, into: RGB8RegionTarget(rect: part, origin: origin, rowBytes: sizes.rgb8OutputRowBytes))
            }
            account(n, nanoseconds: took)
            return bytes
        case .kernel(let kernel as any RGB8InputKernel, _) where n == rgb8Reader:
            let (pixels, took) = try withRGB8Input(of: kernel, node: n, for: rect) { input, part, band in
                kernel.render(rgb8: input, into: RegionTarget(rect: part, origin: band + pads[n] + (part.x - rect.x), stride: strides[n]))
            }
            finish(n, pixels, rows: rect.height)
            account(n, nanoseconds: took)
            return pixels
        case .kernel(let kernel, let inputs):
            let regions = kernel.inputRegions(for: rect)
            var leases = [Lease]()
            defer { for lease in leases { end(lease) } }
            for (i, input) in inputs.enumerated() {
                leases.append(try lease(input, regions[i], kernel.inputs[i].edge))
            }
            let pixels = memory.pixels(bandPixels(n))
            let views = leases.map(\.view)
            let parts = pieces(of: rect, for: kernel, within: regions) { kernel.inputRegions(for: $0) }
            let overreach = UnsafeMutablePointer<Bool>.allocate(capacity: parts.count)
            overreach.initialize(repeating: false, count: parts.count)
            defer { overreach.deallocate() }
            let took = renderPieces(parts.count) { i in
                let part = parts[i], target = RegionTarget(rect: part, origin: pixels + pads[n] + (part.x - rect.x), stride: strides[n])
                guard parts.count > 1 else { return kernel.render(views, into: target) }
                let partRegions = kernel.inputRegions(for: part)
                let rows = UnsafeMutablePointer<UnsafePointer<Pixel>>.allocate(capacity: max(partRegions.reduce(0) { $0 + $1.height }, 1))
                defer { rows.deallocate() }
                var offset = 0
                let partViews = zip(views, partRegions).map { view, region in
                    defer { offset += region.height }
                    return view.subview(region, rows: rows + offset, overreach: overreach + i)
                }
                kernel.render(partViews, into: target)
            }
            try checkReads(leases.contains { $0.overreach.pointee } || (0..<parts.count).contains { overreach[$0] },
                           of: kernel, node: n, output: pixels)
            finish(n, pixels, rows: rect.height)
            account(n, nanoseconds: took)
            return pixels
        case .randomAccess(let kernel, let input, _):
            let region = kernel.inputRegions(for: rect)[0]
            let inputHeight = pipeline.nodes[input].size.height
            try fill(n, from: input, through: min(max(region.maxY, 0), inputHeight))
            let pixels = memory.pixels(bandPixels(n))
            let store = stores[n]!
            let parts = pieces(of: rect, for: kernel, within: [region]) { [kernel.inputRegions(for: $0)[0]] }
            let took = renderPieces(parts.count) { i in
                let part = parts[i]
                kernel.render(from: store, into: RegionTarget(rect: part, origin: pixels + pads[n] + (part.x - rect.x), stride: strides[n]))
            }
            finish(n, pixels, rows: rect.height)
            account(n, nanoseconds: took)
            return pixels
        }
    }

    /// Allocates a band of node `n` and calls `render` with a view of the source's 8-bit rows
    /// that `kernel` reads for `rect` (holding those source bands meanwhile) and the band;
    /// returns the band and when `render` started (the node's time begins once its input is
    /// ready). A read outside the view fails the render and frees the band.
    private func withRGB8Input(of kernel: any RGB8InputKernel, node n: Int, for rect: Rect,
                               _ render: (RGB8RegionView, Rect, UnsafeMutablePointer<Pixel>) -> Void) throws -> (UnsafeMutablePointer<Pixel>, UInt64) {
        // Reads past the edges are the kernel's to answer (RGB8InputKernel): the view holds the image's part.
        let image = Rect(size: pipeline.nodes[0].size)
        let region = kernel.inputRegions(for: rect)[0].intersection(image)
        let bands = BandPlan.touched(pipeline.nodes[0].size, region, .clamp, bandHeight)
        precondition(!region.isEmpty, "an 8-bit RGB reader reads nothing of its input")
        var bases = [UnsafeMutableRawPointer]()
        defer { if let bands { for k in bands.prefix(bases.count) { release(0, k) } } }
        if let bands { for k in bands { bases.append(UnsafeMutableRawPointer(try acquire(0, k))) } }
        let rows = (region.y..<region.maxY).map { y -> UnsafePointer<UInt8> in
            let k = y / bandHeight
            let base = bases[k - bands!.lowerBound].assumingMemoryBound(to: UInt8.self)
            return UnsafePointer(base + (y - k * bandHeight) * rgb8RowBytes + 3 * region.x)
        }
        let band = memory.pixels(bandPixels(n))
        let parts = pieces(of: rect, for: kernel, within: [region]) { [kernel.inputRegions(for: $0)[0].intersection(image)] }
        let overreach = UnsafeMutablePointer<Bool>.allocate(capacity: parts.count)
        overreach.initialize(repeating: false, count: parts.count)
        defer { overreach.deallocate() }
        let took = renderPieces(parts.count) { i in
            let part = parts[i]
            let partRegion = parts.count == 1 ? region : kernel.inputRegions(for: part)[0].intersection(image)
            let partRows = (partRegion.y..<partRegion.maxY).map { rows[$0 - region.y] + 3 * (partRegion.x - region.x) }
            partRows.withUnsafeBufferPointer { partRows in
                render(RGB8RegionView(rect: partRegion, rows: partRows.baseAddress!, overreach: overreach + i), part, band)
            }
        }
        try checkReads((0..<parts.count).contains { overreach[$0] }, of: kernel, node: n, output: band)
        return (band, took)
    }

    /// Applies the node's fused colour program, then fills the padding columns.
    func finish(_ n: Int, _ pixels: UnsafeMutablePointer<Pixel>, rows: Int) {
        let width = pipeline.nodes[n].size.width, pad = pads[n], stride = strides[n]
        let color = pipeline.nodes[n].color
        for r in 0..<rows {
            let row = pixels + r * stride
            if let color, !color.isEmpty { color.apply(row + pad, count: width) }
            guard pad > 0, width > 0 else { continue }
            let clamp = padEdges[n] == .clamp
            row.update(repeating: clamp ? row[pad] : .zero, count: pad)
            (row + pad + width).update(repeating: clamp ? row[pad + width - 1] : .zero, count: pad)
        }
    }

    /// Fails the render when `kernel` read outside the regions it declared (its views answered
    /// those reads with their nearest pixel, so no memory was read that the run does not own).
    func checkReads(_ overreached: Bool, of kernel: any PixelKernel, node n: Int,
                    output pixels: UnsafeMutablePointer<Pixel>) throws {
        guard overreached else { return }
        memory.release(pixels, count: bandPixels(n), reusable: false)
        throw PipelineError.kernelReadOutsideItsRegion(String(describing: type(of: kernel)))
    }
}
