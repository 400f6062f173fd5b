/// The cookbook's `resizableImageWithCapInsets`: resizes an image (a button, a speech bubble, a
/// frame) to `width` × `height` keeping its four corners pixel for pixel, stretching the top and
/// bottom edges across only, the left and right edges down only, and the centre both ways
/// (`center: tile` repeats the centre, and the edges along their length, instead).
///
/// `insets: [top, left, bottom, right]` are pixels of the source, or % of its height (top,
/// bottom) and width (left, right). When the output is smaller
/// than two opposite insets the caps shrink in proportion (CSS `border-image` does the same),
/// and insets larger than the image are cut to it in proportion.
struct NineSliceFilter: RegionFilter {
    enum Center: String, Sendable, CaseIterable { case stretch, tile }

    static let descriptor = FilterDescriptor(
        name: "nine_slice", displayName: "Nine-Slice Resize", categories: ["geometry"],
        description: """
            Resizes to width × height keeping the corners (insets [top, left, bottom, right], \
            px or % of the source) exact, stretching the edges one way and the centre both; \
            center: tile repeats the centre and the edges instead of stretching them.
            """,
        counterpart: "resizableImageWithCapInsets",
        parameters: [
            ParameterDescriptor("width", .length, "Output width (px or % of the width).", default: .length(Length(100, percent: true)),
                                min: 1, max: 100_000, slider: 1...400, identity: .length(Length(100, percent: true)), unit: "px"),
            ParameterDescriptor("height", .length, "Output height (px or % of the height).", default: .length(Length(100, percent: true)),
                                min: 1, max: 100_000, slider: 1...400, identity: .length(Length(100, percent: true)), unit: "px"),
            ParameterDescriptor("insets", .lengths, "[top, left, bottom, right] in px or % of the source; one length for all four.",
                                default: .lengths([Length(8), Length(8), Length(8), Length(8)])),
            ParameterDescriptor("center", .choice(Center.allCases.map(\.rawValue)), "stretch or tile.", default: .choice("stretch")),
        ],
        examples: [
            "width=60 height=9 insets=[3,4,2,5]",
            "width=200% height=150% insets=4 center=tile",
            "width=5 height=70 insets=[9,9,9,9]",
        ])

    var width, height: Length
    var insets: (top: Length, left: Length, bottom: Length, right: Length)
    var center: Center

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        width = p.length("width")
        height = p.length("height")
        center = p.choice("center", as: Center.self)
        let v = p.lengths("insets")
        guard v.count == 1 || v.count == 4 else {
            throw ParameterError("insets: give [top, left, bottom, right] or one length, got \(v.count) lengths")
        }
        if let bad = v.first(where: { !($0.value >= 0 && $0.value <= ($0.isPercent ? 100 : 100_000)) }) {
            throw ParameterError("insets must be from 0 to 100000 px or 0 to 100%, got \(bad)")
        }
        insets = v.count == 1 ? (v[0], v[0], v[0], v[0]) : (v[0], v[1], v[2], v[3])
        for (name, l) in [("width", width), ("height", height)] where l.isPercent && !(l.value > 0) {
            throw ParameterError("\(name) must be more than 0%, got \(l)")
        }
    }

    var isIdentity: Bool { width == Length(100, percent: true) && height == Length(100, percent: true) }

    func outputSize(for input: Size) -> Size {
        func px(_ l: Length, _ extent: Int) -> Int { max(1, Int(saturating: l.pixels(of: extent).rounded())) }
        return Size(width: px(width, input.width), height: px(height, input.height))
    }

    func plan(for input: Size) -> KernelPlan {
        let out = outputSize(for: input)
        return KernelPlan(NineSliceKernel(
            inputSize: input, outputSize: out,
            across: SliceAxis(source: input.width, output: out.width, caps: (insets.left.pixels(of: input.width), insets.right.pixels(of: input.width)), tiles: center == .tile),
            down: SliceAxis(source: input.height, output: out.height, caps: (insets.top.pixels(of: input.height), insets.bottom.pixels(of: input.height)), tiles: center == .tile)))
    }
}

/// One axis of a nine-slice: where each output index samples the source. Caps map one to one
/// (unless the output is too small for them), the middle stretches or repeats.
struct SliceAxis: Sendable, Hashable {
    /// Source and output extents of the start cap, the middle and the end cap.
    let sourceStart, sourceEnd, outputStart, outputEnd, source, output: Int
    let tiles: Bool

    init(source: Int, output: Int, caps: (Double, Double), tiles: Bool) {
        var a = Int(caps.0.rounded()), b = Int(caps.1.rounded())
        if a + b > source, a + b > 0 { (a, b) = (a * source / (a + b), source - a * source / (a + b)) }
        (sourceStart, sourceEnd) = (a, b)
        if a + b > output, a + b > 0 { (a, b) = (a * output / (a + b), output - a * output / (a + b)) }
        (outputStart, outputEnd) = (a, b)
        self.source = source
        self.output = output
        self.tiles = tiles
    }

    /// The two source indices output index `o` blends and the weight of the second.
    func sample(_ o: Int) -> (Int, Int, Float) {
        let (ss, sl, os, ol): (Int, Int, Int, Int)
        if o < outputStart {
            (ss, sl, os, ol) = (0, sourceStart, 0, outputStart)
        } else if o >= output - outputEnd {
            (ss, sl, os, ol) = (source - sourceEnd, sourceEnd, output - outputEnd, outputEnd)
        } else {
            (ss, sl, os, ol) = (sourceStart, source - sourceStart - sourceEnd, outputStart, output - outputStart - outputEnd)
            if sl == 0 {
                // The caps cover the whole source: the seam's pixel fills the middle.
                let i = min(max(sourceStart, 0), source - 1)
                return (i, i, 0)
            }
            if tiles { let i = ss + (o - os) % sl; return (i, i, 0) }
        }
        if sl == ol { return (ss + o - os, ss + o - os, 0) }
        // Pixel centres of the output segment onto those of the source segment, kept inside it.
        let pos = min(max((Double(o - os) + 0.5) * Double(sl) / Double(ol) - 0.5, 0), Double(sl - 1))
        let i0 = Int(pos), i1 = min(i0 + 1, sl - 1)
        return (ss + i0, ss + i1, Float(pos - Double(i0)))
    }

    /// The source indices outputs `range` read.
    func reads(_ range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return 0..<0 }
        var lo = Int.max, hi = Int.min
        for o in range { let (a, b, _) = sample(o); lo = min(lo, a); hi = max(hi, b) }
        return lo..<(hi + 1)
    }
}

/// Samples the source through two ``SliceAxis`` maps: bilinear inside a slice, never across one.
struct NineSliceKernel: PixelKernel {
    let inputSize: Size
    let outputSize: Size
    let across: SliceAxis
    let down: SliceAxis

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .clamp)] }

    func inputRegions(for output: Rect) -> [Rect] {
        let xs = across.reads(output.x..<output.maxX), ys = down.reads(output.y..<output.maxY)
        return [Rect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, view = inputs[0]
        let columns = (r.x..<r.maxX).map(across.sample)
        for y in r.y..<r.maxY {
            let (y0, y1, ty) = down.sample(y)
            let out = target.pointer(r.x, y)
            for (i, (x0, x1, tx)) in columns.enumerated() {
                let a = view[x0, y0] + (view[x1, y0] - view[x0, y0]) * tx
                let b = view[x0, y1] + (view[x1, y1] - view[x0, y1]) * tx
                out[i] = ty == 0 ? a : a + (b - a) * ty
            }
        }
    }
}
