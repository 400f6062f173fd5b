/// CIAffineTransform / CGContextConcatCTM, the Decorator chapter's transform: rotate, scale,
/// translate, shear and matrix steps applied in the order written, about a pivot.
///
/// Coordinates have y pointing down with the origin at the image's top-left corner, pixel
/// (i, j) covering [i, i+1) × [j, j+1). A positive angle turns clockwise on screen, a negative
/// one counter-clockwise. `transform {rotate: -45deg, translate: [-50%, 12.5%]}` rotates 45°
/// counter-clockwise about the top-left corner, then moves the result by (−w/2, +h/8).
/// Each output pixel is inverse-mapped and sampled bilinearly; outside the input is transparent.
struct TransformFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "transform", displayName: "Affine Transform", categories: ["geometry"],
        description: """
            Rotates, scales, translates and shears, in the order the steps are written, about \
            the pivot. canvas: same keeps the input's size (what moves out is cut off); grow \
            makes the output the bounding box of the whole transformed image (translation then \
            only shifts it by a fraction of a pixel). Uncovered pixels get the background colour. \
            Bilinear sampling: shrink below half size with resize instead, which antialiases.
            """,
        counterpart: "CIAffineTransform / vips affine",
        parameters: [
            ParameterDescriptor("rotate", .angle, "Angle; positive turns clockwise (y points down).",
                                slider: -Double.pi...Double.pi, identity: .number(0), unit: "rad"),
            ParameterDescriptor("scale", .numbers, "One factor, or [sx, sy]."),
            ParameterDescriptor("translate", .point, "[tx, ty] in px or % of the width and height."),
            ParameterDescriptor("shear", .numbers, "[shx, shy]: x += shx·y, y += shy·x; one number shears x only."),
            ParameterDescriptor("matrix", .numbers, "[a, b, c, d, tx, ty]: x' = a·x + c·y + tx, y' = b·x + d·y + ty."),
            ParameterDescriptor("pivot", .point, "Fixed point of rotate, scale and shear: top_left, center or [x, y].",
                                default: .point(Length(0), Length(0))),
            ParameterDescriptor("canvas", .choice(["same", "grow"]), "same: keep the input size; grow: keep the whole transformed image.",
                                default: .choice("same")),
            ParameterDescriptor("background", .color, "Colour under uncovered and partly covered pixels.",
                                default: .color(.transparent)),
        ],
        examples: [
            "rotate=random",
            "rotate=30deg canvas=grow background=#ffffff80",
            "scale=[1.5,0.5] translate=[3,-4]",
            "shear=[0.3,0.1] pivot=center",
            "rotate=180deg",
            "matrix=[-1,0,0,1,0,0]",
        ])

    var steps: [TransformStep]
    var pivot: (x: Length, y: Length)
    var grow: Bool
    var background: RGBA

    init(parameters: ResolvedParameters) throws(ParameterError) {
        var steps = [TransformStep]()
        for (name, value) in parameters.entries {
            if let step = try TransformStep.parse(name, value) { steps.append(step) }
        }
        self.steps = steps
        pivot = Self.described(parameters).point("pivot")
        grow = Self.described(parameters).choice("canvas") == "grow"
        background = Self.described(parameters).color("background")
        // Only translate depends on the image size, so any size tells whether the map is invertible.
        let probe = affine(for: Size(width: 100, height: 100))
        guard probe.isFinite else {
            throw ParameterError("the transform's numbers are too large to compute with; use factors a few orders of magnitude smaller")
        }
        guard let inverse = probe.inverted, inverse.isFinite else {
            throw ParameterError("the transform collapses the image to a line or a point (a zero scale or a singular matrix)")
        }
    }

    /// The forward map from input coordinates to the (same-canvas) output coordinates.
    func affine(for size: Size) -> AffineTransform {
        let px = pivot.x.pixels(of: size.width), py = pivot.y.pixels(of: size.height)
        let body = steps.reduce(AffineTransform.identity) { $0.then($1.affine(for: size)) }
        return AffineTransform.translation(-px, -py).then(body).then(.translation(px, py))
    }

    /// The map from input coordinates to output pixel coordinates, and the output size.
    func placement(for input: Size) -> (map: AffineTransform, size: Size) {
        let m = affine(for: input)
        guard grow else { return (m, input) }
        let box = m.boundingBox(of: Rect(size: input))
        let size = Size(width: max(box.width, 1), height: max(box.height, 1))
        return (m.then(.translation(Double(-box.x), Double(-box.y))), size)
    }

    var isIdentity: Bool {
        background.a == 0 && [Size(width: 1, height: 1), Size(width: 640, height: 480)].allSatisfy { affine(for: $0).isIdentity }
    }

    func outputSize(for input: Size) -> Size { placement(for: input).size }

    func plan(for input: Size) -> KernelPlan {
        let (map, size) = placement(for: input)
        // init refused singular maps, so the inverse exists.
        return KernelPlan(TransformKernel(inputSize: input, outputSize: size, inverse: map.inverted ?? .identity,
                                          background: background.pixel))
    }
}

/// Inverse-maps each output pixel and samples the input bilinearly. Streams when the rows a
/// strip reads are few (small angles, scales, translations); otherwise (a rotation, a flip) the
/// pipeline keeps the input whole in compact form and calls the random-access entry.
struct TransformKernel: RandomAccessKernel {
    var rendersInColumnPieces: Bool { true }
    let inputSize: Size
    let outputSize: Size
    /// Output pixel coordinates to input coordinates.
    let inverse: AffineTransform
    let background: Pixel

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .transparent)] }
    var preservesOpacity: Bool { background[3] >= 1 }
    var preservesGrey: Bool { background.isGrey }

    func inputRegions(for output: Rect) -> [Rect] {
        // One more pixel each side for the bilinear taps.
        [inverse.boundingBox(of: output).expanded(by: 1)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        render(ViewGrid(view: inputs[0], width: inputSize.width, height: inputSize.height), into: target)
    }

    func render(from input: CompactImage, into target: RegionTarget) {
        guard input.layout == .rgb8 else { return render(input, into: target) }
        renderOpaque8(input, into: target)
    }

    /// The hot path of a rotated photo: an opaque 8-bit source read straight from its bytes,
    /// four taps in single precision, no per-pixel layout dispatch. Pixels whose taps cross the
    /// edge go through the general sampler.
    private func renderOpaque8(_ input: CompactImage, into target: RegionTarget) {
        let r = target.rect, inv = inverse, bg = background
        let hasBackground = bg != .zero
        let w = input.size.width, h = input.size.height, rowBytes = 3 * w
        let bytes = UnsafePointer(input.storage.assumingMemoryBound(to: UInt8.self))
        let scale: Float = 1 / 255
        // Column chunks, rows inside: a rotated row walks across thousands of source rows, so
        // whole output rows would evict each other's source lines from the cache; a 64-pixel
        // chunk of a band reads a small patch of the source that stays in it.
        let chunk = 64
        var spans = [(Int, Int)]()
        for y in r.y..<r.maxY {
            let start = inv.apply(Double(r.x) + 0.5, Double(y) + 0.5)
            spans.append(span(start.x - 0.5, start.y - 0.5, count: r.width))
        }
        var c0 = 0
        while c0 < r.width {
            let c1 = min(c0 + chunk, r.width)
            for y in r.y..<r.maxY {
                let out = target.pointer(r.x, y)
                let start = inv.apply(Double(r.x) + 0.5, Double(y) + 0.5)
                let sx = start.x - 0.5, sy = start.y - 0.5
                let (lo, hi) = spans[y - r.y]
                let from = min(max(lo, c0), c1), to = max(min(hi, c1), from)
                (out + c0).update(repeating: bg, count: from - c0)
                for i in from..<to {
                    let x = sx + Double(i) * inv.a, yy = sy + Double(i) * inv.b
                    var p: Pixel
                    // Truncation is the floor for non-negative positions, and far cheaper than
                    // rounded(.down), which is a libm call on baseline x86-64.
                    let x0 = Int(x), y0 = Int(yy)
                    if x >= 0, yy >= 0, x0 + 1 < w, y0 + 1 < h {
                        let tx = Float(x - Double(x0)), ty = Float(yy - Double(y0))
                        let a = bytes + (y0 * rowBytes + 3 * x0), b = a + rowBytes
                        let top = Pixel(Float(a[0]), Float(a[1]), Float(a[2]), 255) * (1 - tx)
                            + Pixel(Float(a[3]), Float(a[4]), Float(a[5]), 255) * tx
                        let bottom = Pixel(Float(b[0]), Float(b[1]), Float(b[2]), 255) * (1 - tx)
                            + Pixel(Float(b[3]), Float(b[4]), Float(b[5]), 255) * tx
                        p = (top + (bottom - top) * ty) * scale
                    } else {
                        p = input.bilinear(x, yy)
                    }
                    if hasBackground { p += bg * (1 - p[3]) }
                    out[i] = p
                }
                (out + to).update(repeating: bg, count: c1 - to)
            }
            c0 = c1
        }
    }

    private func render<Grid: PixelGrid>(_ grid: Grid, into target: RegionTarget) {
        let r = target.rect, inv = inverse, bg = background
        let hasBackground = bg != .zero
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            // Source position of the centre of output pixel (r.x, y), in index space.
            let start = inv.apply(Double(r.x) + 0.5, Double(y) + 0.5)
            let sx = start.x - 0.5, sy = start.y - 0.5
            // Only a run of the row lands on the input; the rest is background at once.
            let (lo, hi) = span(sx, sy, count: r.width)
            out.update(repeating: bg, count: lo)
            for i in lo..<hi {
                var p = grid.bilinear(sx + Double(i) * inv.a, sy + Double(i) * inv.b)
                if hasBackground { p += bg * (1 - p[3]) }
                out[i] = p
            }
            (out + hi).update(repeating: bg, count: r.width - hi)
        }
    }

    /// The outputs `lo ..< hi` of a row whose samples may touch the input (a pixel more each
    /// side than the exact interval, which the sampler then settles).
    private func span(_ sx: Double, _ sy: Double, count: Int) -> (Int, Int) {
        var lo = 0.0, hi = Double(count)
        for (start, step, limit) in [(sx, inverse.a, Double(inputSize.width)), (sy, inverse.b, Double(inputSize.height))] {
            // Samples at start + i·step with -1 ≤ value < limit can read the input.
            if step == 0 {
                if start < -1 || start >= limit { return (0, 0) }
                continue
            }
            let a = (-1 - start) / step, b = (limit - start) / step
            lo = max(lo, min(a, b) - 1)
            hi = min(hi, max(a, b) + 1)
        }
        guard hi > lo else { return (0, 0) }
        let first = Int(max(0, lo.rounded(.down))), last = Int(min(Double(count), hi.rounded(.up)))
        return (min(first, last), last)
    }
}
