/// The Decorator chapter's drop shadow (CGContextSetShadowWithColor): the image's alpha, tinted,
/// offset and blurred, composited under the image (source-over).
///
/// `offset` is in image coordinates (x right, y down), so the default [−25, 15] casts the shadow
/// left and down; it is rounded to whole pixels (the blur hides the fraction). `blur` is treated
/// as a Gaussian radius, sigma = blur, exactly as `gaussian_blur` (CG documents no formula).
struct DropShadowFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "drop_shadow", displayName: "Drop Shadow", categories: ["composite", "stylize"],
        description: "Casts the image's shadow: its alpha tinted with the colour, offset, blurred (sigma = blur) "
            + "and drawn under the image. canvas=grow enlarges the canvas so the whole shadow fits.",
        counterpart: "CGContextSetShadow",
        parameters: [
            ParameterDescriptor("offset", .point, "Where the shadow falls, x right and y down, in px or % of the size.",
                                default: .point(Length(-25), Length(15)), unit: "px"),
            ParameterDescriptor("blur", .scalar, "Blur of the shadow: a Gaussian standard deviation in pixels.",
                                default: .number(20), min: 0, max: GaussianBlur.maximumSigma, slider: 0...100, unit: "px"),
            ParameterDescriptor("color", .color, "The shadow's colour; its alpha is the shadow's opacity.",
                                default: .color(RGBA(0, 0, 0, 1.0 / 3))),
            ParameterDescriptor("canvas", .choice(["same", "grow"]),
                                "same keeps the image's size (the shadow is cut at the edges); grow makes room for it.",
                                default: .choice("same")),
        ],
        examples: [
            "offset=[-5,3] blur=6 canvas=grow",
            "offset=[40%,-20%] blur=2",
        ])

    let offset: (x: Length, y: Length)
    let color: RGBA
    let growsCanvas: Bool
    private let blur: GaussianBlur

    init(parameters: ResolvedParameters) {
        let p = Self.described(parameters)
        let o = p.point("offset")
        offset = (o.0, o.1)
        color = p.color("color")
        growsCanvas = p.choice("canvas") == "grow"
        blur = GaussianBlur(sigma: p.number("blur"))
    }

    var isIdentity: Bool { color.a == 0 && !growsCanvas }

    /// Where things land on the output canvas for an input of a given size.
    struct Layout {
        var size: Size
        /// The output position of the input's top-left pixel.
        var image: (x: Int, y: Int)
        /// The output position of the unblurred shadow's top-left pixel.
        var shadow: (x: Int, y: Int)
    }

    func layout(for input: Size) -> Layout {
        let dx = Int(saturating: offset.x.pixels(of: input.width).rounded())
        let dy = Int(saturating: offset.y.pixels(of: input.height).rounded())
        guard growsCanvas else { return Layout(size: input, image: (0, 0), shadow: (dx, dy)) }
        let shadowRect = Rect(x: dx, y: dy, width: input.width, height: input.height).expanded(by: blur.halo(alphaOnly: true))
        let bounds = Rect(size: input).union(shadowRect)
        return Layout(size: bounds.size, image: (-bounds.x, -bounds.y), shadow: (dx - bounds.x, dy - bounds.y))
    }

    func outputSize(for input: Size) -> Size { layout(for: input).size }

    /// The shadow (``CastShadow``: the image's alpha, offset, blurred and tinted), then the image
    /// composited over it.
    func plan(for input: Size) -> KernelPlan {
        let l = layout(for: input)
        let shadow = CastShadow(offset: (l.shadow.x - l.image.x, l.shadow.y - l.image.y), color: color, blur: blur.kernel.sigma)
        let m = shadow.margin
        let composite = ShadowComposite(inputSize: input, shadowSize: Size(width: l.size.width + 2 * m, height: l.size.height + 2 * m),
                                        outputSize: l.size, image: l.image, halo: m, growsCanvas: growsCanvas)
        let steps = shadow.steps(casting: .input, size: input, canvas: l.size, at: l.image, first: 0)
        return KernelPlan(steps + [.init(composite, sources: [.input, .step(steps.count - 1)], label: "composite")])
    }
}

/// The image drawn over its blurred shadow (source-over), on the output canvas.
struct ShadowComposite: PixelKernel {
    let inputSize: Size
    let shadowSize: Size
    let outputSize: Size
    /// Where the input's top-left pixel lands on the canvas.
    let image: (x: Int, y: Int)
    /// The shadow layer's margin around the canvas.
    let halo: Int
    let growsCanvas: Bool

    var inputs: [KernelInput] {
        [KernelInput(size: inputSize, edge: .transparent), KernelInput(size: shadowSize, edge: .clamp)]
    }

    /// On the input's own canvas the image covers every pixel; a grown canvas has bare shadow.
    func isOpaque(givenOpaqueInputs opaqueInputs: [Bool]) -> Bool { !growsCanvas && opaqueInputs[0] }

    /// The image's part under `output` (on a grown canvas the margins are bare shadow, written
    /// here rather than read as transparent pixels, so the image's bands need no copies), and
    /// the shadow under it.
    func inputRegions(for output: Rect) -> [Rect] {
        let region = Rect(x: output.x - image.x, y: output.y - image.y, width: output.width, height: output.height)
            .intersection(Rect(size: inputSize))
        return [region.isEmpty ? Rect(x: 0, y: 0, width: 0, height: 0) : region,
                Rect(x: output.x + halo, y: output.y + halo, width: output.width, height: output.height)]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect, region = inputRegions(for: r)[0]
        for y in r.y..<r.maxY {
            let s = inputs[1].pointer(r.x + halo, y + halo)
            let out = target.pointer(r.x, y), sy = y - image.y
            guard !region.isEmpty, sy >= region.y, sy < region.maxY else {
                out.update(from: s, count: r.width)
                continue
            }
            // Output columns x0 ..< x1 lie over the image.
            let x0 = region.x + image.x - r.x, x1 = region.maxX + image.x - r.x
            let p = inputs[0].pointer(region.x, sy)
            out.update(from: s, count: x0)
            for i in x0..<x1 { out[i] = p[i - x0] + s[i] * (1 - p[i - x0][3]) }
            (out + x1).update(from: s + x1, count: r.width - x1)
        }
    }
}
