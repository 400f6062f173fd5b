import CDarkroomKernels

/// The horizontal half of a separable resize: every row of the input, reduced (or enlarged)
/// across. Its rows are cached by the pipeline, so the vertical half's overlapping windows
/// reuse them instead of reducing the same source rows again.
struct ResampleAcross: RGB8InputKernel {
    var rendersInColumnPieces: Bool { true }
    let inputSize: Size
    let weights: AxisWeights
    /// The weights in fixed point, for 8-bit input; nil when they do not fit.
    private let fixed: (taps: Int, weights: [Int16], start: [Int32])?

    init(inputSize: Size, weights: AxisWeights) {
        self.inputSize = inputSize
        self.weights = weights
        fixed = weights.fixedPoint(bits: Int(DR_WEIGHT_BITS)).map { ($0.evenTaps, $0.weights, weights.start.map { Int32($0) }) }
    }

    var acceptsRGB8Input: Bool { fixed != nil }

    var outputSize: Size { Size(width: weights.start.count, height: inputSize.height) }
    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] {
        let xs = weights.sourceRange(of: output.x..<output.maxX)
        return [Rect(x: xs.lowerBound, y: output.y, width: xs.count, height: output.height)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, view = inputs[0], taps = weights.taps
        weights.weights.withUnsafeBufferPointer { hw in
            weights.start.withUnsafeBufferPointer { hs in
                for y in r.y..<r.maxY {
                    // Column 0 of the source row: each output reads from its own start column.
                    let src = view.pointer(view.rect.x, y) - view.rect.x
                    let out = target.pointer(r.x, y)
                    if taps % 4 == 0 {
                        // Weights four at a time, as one vector load rather than four scalar
                        // loads: the wide kernels of a large reduction have many taps.
                        let weights4 = UnsafeRawPointer(hw.baseAddress!)
                        for i in 0..<r.width {
                            let o = r.x + i
                            let s = src + hs[o]
                            // Four independent sums let the loads and multiplies overlap.
                            var a0 = Pixel.zero, a1 = Pixel.zero, a2 = Pixel.zero, a3 = Pixel.zero
                            var k = 0
                            while k < taps {
                                let w = weights4.loadUnaligned(fromByteOffset: (o * taps + k) * 4, as: SIMD4<Float>.self)
                                a0 += s[k] * Pixel(repeating: w[0])
                                a1 += s[k + 1] * Pixel(repeating: w[1])
                                a2 += s[k + 2] * Pixel(repeating: w[2])
                                a3 += s[k + 3] * Pixel(repeating: w[3])
                                k += 4
                            }
                            out[i] = (a0 + a1) + (a2 + a3)
                        }
                        continue
                    }
                    for i in 0..<r.width {
                        let o = r.x + i
                        let s = src + hs[o]
                        let w = hw.baseAddress! + o * taps
                        // Four independent sums let the loads and multiplies overlap.
                        var a0 = Pixel.zero, a1 = Pixel.zero, a2 = Pixel.zero, a3 = Pixel.zero
                        var k = 0
                        while k + 4 <= taps {
                            a0 += s[k] * w[k]
                            a1 += s[k + 1] * w[k + 1]
                            a2 += s[k + 2] * w[k + 2]
                            a3 += s[k + 3] * w[k + 3]
                            k += 4
                        }
                        while k < taps { a0 += s[k] * w[k]; k += 1 }
                        out[i] = (a0 + a1) + (a2 + a3)
                    }
                }
            }
        }
    }
}

extension ResampleAcross {
    /// Rows straight from the decoded 8-bit samples, in 14-bit fixed point (see
    /// `dr_resample_rgb8_across`): within 0.2/255 of the float render.
    func render(rgb8 view: RGB8RegionView, into target: RegionTarget) {
        let r = target.rect, fixed = fixed!
        fixed.weights.withUnsafeBufferPointer { w in
            fixed.start.withUnsafeBufferPointer { s in
                for y in r.y..<r.maxY {
                    // Column 0 of the source row: each output reads from its own start column.
                    let row = view.pointer(view.rect.x, y) - 3 * view.rect.x
                    UnsafeMutableRawPointer(target.pointer(r.x, y)).withMemoryRebound(to: Float.self, capacity: 4 * r.width) {
                        dr_resample_rgb8_across(row, s.baseAddress, w.baseAddress, Int32(fixed.taps), Int32(r.x), Int32(r.width), $0)
                    }
                }
            }
        }
    }
}

/// The vertical half of a separable resize, placing the picture on the output canvas (`fit:
/// contain` pads around it with the background).
struct ResampleDown: PixelKernel {
    var rendersInColumnPieces: Bool { true }
    /// The horizontal half's output.
    let inputSize: Size
    let weights: AxisWeights
    let outputSize: Size
    /// Where the resampled picture lies on the output.
    let placement: Rect
    let background: Pixel
    /// Kernels with negative lobes (bicubic, lanczos3) overshoot at hard edges; their results
    /// are clamped so that alpha stays in 0…1 and colour never exceeds alpha (valid premultiplied).
    let clampsOvershoot: Bool

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }

    var preservesOpacity: Bool { background[3] >= 1 || placement == Rect(size: outputSize) }
    var preservesGrey: Bool { background.isGrey || placement == Rect(size: outputSize) }

    func inputRegions(for output: Rect) -> [Rect] {
        let picture = output.intersection(placement)
        guard !picture.isEmpty else { return [Rect(x: 0, y: 0, width: 0, height: 0)] }
        let ys = weights.sourceRange(of: (picture.y - placement.y)..<(picture.maxY - placement.y))
        return [Rect(x: picture.x - placement.x, y: ys.lowerBound, width: picture.width, height: ys.count)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, view = inputs[0], taps = weights.taps
        let picture = r.intersection(placement)
        weights.weights.withUnsafeBufferPointer { vw in
            for y in r.y..<r.maxY {
                let out = target.pointer(r.x, y)
                guard !picture.isEmpty, y >= picture.y, y < picture.maxY else {
                    out.update(repeating: background, count: r.width)
                    continue
                }
                let left = picture.x - r.x, width = picture.width
                out.update(repeating: background, count: left)
                (out + left + width).update(repeating: background, count: r.maxX - picture.maxX)
                let o = y - placement.y, first = weights.start[o]
                let w = vw.baseAddress! + o * taps
                let dst = out + left, column = picture.x - placement.x
                // Non-zero taps four rows at a time: a quarter of the passes over the output row.
                var k = 0
                while k < taps, w[k] == 0 { k += 1 }
                var end = taps
                while end > k + 1, w[end - 1] == 0 { end -= 1 }
                if k == taps {
                    dst.update(repeating: .zero, count: width)
                } else {
                    let row0 = view.pointer(column, first + k), w0 = Pixel(repeating: w[k])
                    for i in 0..<width { dst[i] = row0[i] * w0 }
                    k += 1
                }
                while k + 4 <= end {
                    let l0 = view.pointer(column, first + k), l1 = view.pointer(column, first + k + 1)
                    let l2 = view.pointer(column, first + k + 2), l3 = view.pointer(column, first + k + 3)
                    let w0 = Pixel(repeating: w[k]), w1 = Pixel(repeating: w[k + 1])
                    let w2 = Pixel(repeating: w[k + 2]), w3 = Pixel(repeating: w[k + 3])
                    for i in 0..<width { dst[i] += (l0[i] * w0 + l1[i] * w1) + (l2[i] * w2 + l3[i] * w3) }
                    k += 4
                }
                while k < end {
                    let line = view.pointer(column, first + k), wk = Pixel(repeating: w[k])
                    for i in 0..<width { dst[i] += line[i] * wk }
                    k += 1
                }
                if clampsOvershoot {
                    for i in 0..<width {
                        let a = min(max(dst[i][3], 0), 1)
                        dst[i] = dst[i].clamped(lowerBound: .zero, upperBound: Pixel(a, a, a, a))
                    }
                }
            }
        }
    }
}
