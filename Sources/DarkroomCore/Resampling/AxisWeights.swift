/// The taps of a 1-D resampling along one axis, computed once per output column (or row) and
/// shared by every row (or column), as libvips' `reduceh`/`reducev` and Pillow's `ImagingResample`
/// do.
///
/// Output index `o` reads source indices `start[o] ..< start[o] + taps` with weights
/// `weights[o * taps ..< (o + 1) * taps]` (unused trailing weights are zero). Taps that would fall
/// outside the source are dropped and the rest renormalised, so edges keep their brightness.
struct AxisWeights: Sendable {
    /// Number of weights stored per output index (the widest footprint).
    let taps: Int
    /// First source index each output index reads.
    let start: [Int]
    /// `taps` weights per output index, summing to 1.
    let weights: [Float]

    /// Weights mapping `sourceLength` pixels onto `outputLength` pixels.
    ///
    /// - Parameters:
    ///   - scale: source pixels per output pixel (> 1 shrinks).
    ///   - offset: source coordinate of the output's left (or top) edge, for cropping.
    ///   Output pixel `o` is centred on source coordinate `(o + 0.5)·scale + offset − 0.5`, the
    ///   pixel-centre convention of libvips and Pillow. When shrinking, the kernel is widened by
    ///   `scale` so that every source pixel contributes (antialiasing).
    init(kernel: ResamplingKernel, sourceLength: Int, outputLength: Int,
                scale: Double, offset: Double = 0) {
        precondition(sourceLength > 0 && outputLength > 0 && scale > 0)
        if kernel == .nearest {
            // A single tap: the source pixel whose area holds the output pixel's centre.
            taps = 1
            start = (0..<outputLength).map { o in
                min(max(Int(((Double(o) + 0.5) * scale + offset).rounded(.down)), 0), sourceLength - 1)
            }
            weights = Array(repeating: 1, count: outputLength)
            return
        }
        let stretch = max(scale, 1)
        let support = kernel.support * stretch
        // The footprint [centre − support, centre + support] holds at most ⌊2·support⌋ + 1
        // whole source indices (one more than that was a quarter of the horizontal pass's work
        // at 1/1.9 with lanczos3: 16 taps where 12 hold every non-zero weight). Rounded up to a
        // multiple of four (the extra weights are zero): the horizontal pass then loads weights
        // four at a time.
        let needed = Int((support * 2).rounded(.down)) + 1
        let taps = min((needed + 3) / 4 * 4, sourceLength)
        var start = [Int](repeating: 0, count: outputLength)
        var weights = [Float](repeating: 0, count: outputLength * taps)
        var row = [Double](repeating: 0, count: taps)
        for o in 0..<outputLength {
            let centre = (Double(o) + 0.5) * scale + offset - 0.5
            var first = Int((centre - support).rounded(.up))
            var last = Int((centre + support).rounded(.down))
            first = max(first, 0)
            last = min(last, sourceLength - 1)
            if last - first + 1 > taps { last = first + taps - 1 }
            if last < first {
                // The footprint misses the source entirely (only at extreme offsets): take the edge.
                first = min(max(Int(centre.rounded()), 0), sourceLength - 1)
                last = first
            }
            var total = 0.0
            for i in first...last {
                let w = kernel.weight((Double(i) - centre) / stretch)
                row[i - first] = w
                total += w
            }
            if total == 0 { total = 1; row[0] = 1 }
            for i in 0...(last - first) { weights[o * taps + i] = Float(row[i] / total) }
            // Slide the window left if it would overrun the source, keeping `taps` reads in range.
            let shift = max(0, first + taps - sourceLength)
            if shift > 0 {
                for i in stride(from: taps - 1, through: 0, by: -1) {
                    weights[o * taps + i] = i >= shift ? weights[o * taps + i - shift] : 0
                }
            }
            start[o] = first - shift
        }
        self.taps = taps
        self.start = start
        self.weights = weights
    }

    /// The weights in signed fixed point with `bits` fraction bits, `evenTaps` per output index
    /// (a zero appended when `taps` is odd), each index's summing to exactly `1 << bits` so that
    /// flat areas stay exactly flat; nil when a weight does not fit 16 bits.
    func fixedPoint(bits: Int) -> (evenTaps: Int, weights: [Int16])? {
        let one = 1 << bits, even = (taps + 1) / 2 * 2
        var fixed = [Int16](repeating: 0, count: start.count * even)
        for o in start.indices {
            var total = 0, largest = 0
            for t in 0..<taps {
                let w = Double(weights[o * taps + t]) * Double(one)
                guard abs(w) < Double(Int16.max) - 1 else { return nil }
                let q = Int(w.rounded())
                fixed[o * even + t] = Int16(q)
                total += q
                if abs(q) > abs(Int(fixed[o * even + largest])) { largest = t }
            }
            // The rounding error goes to the largest weight, where it matters least.
            let corrected = Int(fixed[o * even + largest]) + one - total
            guard let value = Int16(exactly: corrected) else { return nil }
            fixed[o * even + largest] = value
        }
        return (even, fixed)
    }

    /// Source indices read by output indices `range`, for region requests.
    func sourceRange(of range: Range<Int>) -> Range<Int> {
        guard let lo = range.first, let hi = range.last else { return 0..<0 }
        return start[lo]..<(start[hi] + taps)
    }
}
