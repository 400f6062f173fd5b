import DarkroomCore

/// The drawing chapter's transparency layer (CGContextBeginTransparencyLayer … EndTransparencyLayer):
/// a sub-chain drawn into a layer the size of the image, then composited onto the image as one
/// piece, with one opacity, one blend mode and one shadow. Shapes that overlap inside the group
/// do not show their overlap through a group opacity, as they would with an opacity each.
///
/// The layer starts transparent (`source: transparent`, Core Graphics' semantics: for the
/// drawing filters) or as a copy of the image (`source: image`, so that
/// `group {opacity: 0.5, chain: [sepia]}` is a half-strength sepia). With a `shadow`, the
/// layer's alpha casts it (tinted, offset, blurred with sigma = blur as in `drop_shadow`) under
/// the layer; the layer over its shadow is then composited with `opacity` and `blend` — as SVG
/// renders `<g opacity filter="drop-shadow">`. The sub-chain may not change the image's size
/// (resize, crop, pad, rotate by 90°) nor measure the whole image first (trim, normalise):
/// both are refused when the chain is read.
///
/// Its plan is the sub-chain's own steps (``SubChainPlan``), then the shadow's, then one
/// composite: strips stream through all of them, each reading only the regions it needs (the
/// sub-chain's halos and the shadow's offset and blur reach back to the input).
public struct GroupFilter: RegionFilter {
    public static let shadowFields = [
        ParameterDescriptor("offset", .point, "Where the shadow falls, x right and y down, in px or % of the image's size.",
                            default: .point(Length(7), Length(7)), unit: "px"),
        ParameterDescriptor("blur", .scalar, "Blur of the shadow: a Gaussian standard deviation in pixels.",
                            default: .number(12), min: 0, max: 1000, slider: 0...100, unit: "px"),
        ParameterDescriptor("color", .color, "The shadow's colour; its alpha is the shadow's opacity.",
                            default: .color(RGBA(0, 0, 0, 1.0 / 3))),
    ]

    public static let descriptor = FilterDescriptor(
        name: "group", displayName: "Group (Transparency Layer)", categories: ["composite"],
        description: """
            Runs a sub-chain on a layer the size of the image (transparent, or a copy of the image with \
            source=image) and composites the layer once, with one opacity, blend mode and optional shadow \
            {offset, blur, color}. The sub-chain may not change the image's size.
            """,
        counterpart: "CGContextBeginTransparencyLayer / SVG <g opacity> / cairo_push_group",
        parameters: [
            ParameterDescriptor("chain", .chain, "The filters drawn into the layer, in order, written as a chain is.", required: true),
            ParameterDescriptor("source", .choice(["transparent", "image"]),
                                "What the layer starts as: transparent (for drawing filters), or a copy of the image.",
                                default: .choice("transparent")),
            ParameterDescriptor("opacity", .scalar, "The layer's opacity, applied once to the whole layer.",
                                default: .number(1), min: 0, max: 1, slider: 0...1),
            .blendMode("How the layer combines with the image: a W3C blend mode or a Porter-Duff operator."),
            ParameterDescriptor("shadow", .record(shadowFields),
                                "A shadow the layer casts under itself: {offset ([7, 7]), blur (12), color (black at 1/3)}."),
        ],
        examples: [
            "opacity=0.5 chain=[draw shapes=[{shape=ellipse, fill=random}, {shape=rect, x=10%, y=5, width=60%, height=40%, fill=#00ff00c0}]]",
            "source=image opacity=0.7 blend=multiply chain=[sepia | gaussian_blur radius=2 | invert]",
            "shadow={offset=[3,-2], blur=2, color=#0000ff80} chain=[overlay_image image=stamp.png at=[3,4] | box_blur radius=1]",
            "source=image shadow={offset=[-10%,20%], blur=0} chain=[clip shape=ellipse feather=2 | flip direction=vertical]",
            "blend=source_in chain=[group opacity=0.5 shadow={} chain=[draw shapes=[{shape=line, points=[0,0,40,30]}]] | convolve kernel=[0,1,0,1,1,1,0,1,0] scale=5]",
            "source=image chain=[transform rotate=30deg | sepia]",
        ])

    public let steps: [ResolvedFilter]
    public let startsFromImage: Bool
    public let opacity: Double
    public let mode: BlendMode
    /// The shadow's offset (px or %), colour and blur, when there is one.
    let shadow: (offset: (x: Length, y: Length), color: RGBA, blur: Double)?
    private let subChain: SubChainPlan

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        steps = p.chain("chain")
        for (i, step) in steps.enumerated() {
            if let problem = SubChainPlan.layerProblem(step.filter) { throw ParameterError(problem, at: [.key("chain"), .index(i)]) }
        }
        startsFromImage = p.choice("source") == "image"
        opacity = p.number("opacity")
        mode = p.blendMode()
        shadow = p.optionalRecord("shadow").map { s in
            let o = s.point("offset")
            return ((o.0, o.1), s.color("color"), s.number("blur"))
        }
        subChain = SubChainPlan(steps)
    }

    /// A layer at opacity 0 adds nothing under the bounded operators.
    public var isIdentity: Bool { opacity == 0 && mode.isBounded }

    public func outputSize(for input: Size) -> Size { input }

    public var readsChainSource: Bool { subChain.readsChainSource }

    public func plan(for input: Size) -> KernelPlan { plan(input, chainSource: nil) }

    public func plan(for input: Size, chainSource: Size) -> KernelPlan { plan(input, chainSource: chainSource) }

    private func plan(_ input: Size, chainSource: Size?) -> KernelPlan {
        var steps = [KernelPlan.Step]()
        var start = KernelPlan.Source.input
        if !startsFromImage {
            steps.append(.init(ClearKernel(size: input), sources: [], label: "layer"))
            start = .step(0)
        }
        let sub = subChain.steps(on: start, size: input, chainSource: chainSource, first: steps.count)
        steps += sub.steps
        var sources = [KernelPlan.Source.input, sub.output]
        var halo: Int?
        if let shadow {
            let cast = CastShadow(offset: (Int(saturating: shadow.offset.x.pixels(of: input.width).rounded()),
                                           Int(saturating: shadow.offset.y.pixels(of: input.height).rounded())),
                                  color: shadow.color, blur: shadow.blur)
            steps += cast.steps(casting: sub.output, size: input, canvas: input, first: steps.count)
            sources.append(.step(steps.count - 1))
            halo = cast.margin
        }
        steps.append(.init(LayerComposite(size: input, mode: mode, opacity: Float(opacity), shadowHalo: halo),
                           sources: sources, label: "composite"))
        return KernelPlan(steps)
    }
}

/// A transparent layer: where a group's sub-chain draws when it does not start from the image.
struct ClearKernel: PixelKernel {
    let size: Size

    var outputSize: Size { size }
    var inputs: [KernelInput] { [] }
    var preservesOpacity: Bool { false }

    func inputRegions(for output: Rect) -> [Rect] { [] }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        for y in r.y..<r.maxY { target.pointer(r.x, y).update(repeating: .zero, count: r.width) }
    }
}

/// The image with a group's layer composited onto it: the layer over its shadow (source-over),
/// times the opacity, by the blend mode.
struct LayerComposite: PixelKernel {
    let size: Size
    let mode: BlendMode
    let opacity: Float
    /// The shadow canvas's margin (its pixel (x + halo, y + halo) lies under (x, y)); nil: no shadow.
    let shadowHalo: Int?

    var outputSize: Size { size }

    var inputs: [KernelInput] {
        let shadow = shadowHalo.map { h in [KernelInput(size: Size(width: size.width + 2 * h, height: size.height + 2 * h), edge: .clamp)] }
        return [KernelInput(size: size, edge: .clamp), KernelInput(size: size, edge: .transparent)] + (shadow ?? [])
    }

    var preservesOpacity: Bool { mode.keepsOpaqueBackdropOpaque }
    var preservesGrey: Bool { mode.preservesGrey }

    /// The layer may be transparent anywhere: only the image's opacity and the mode decide.
    func isOpaque(givenOpaqueInputs opaqueInputs: [Bool]) -> Bool { opaqueInputs[0] && mode.keepsOpaqueBackdropOpaque }

    func inputRegions(for output: Rect) -> [Rect] {
        [output, output] + (shadowHalo.map { h in [Rect(x: output.x + h, y: output.y + h, width: output.width, height: output.height)] } ?? [])
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        let layer = UnsafeMutablePointer<Pixel>.allocate(capacity: r.width)
        defer { layer.deallocate() }
        for y in r.y..<r.maxY {
            let image = inputs[0].pointer(r.x, y), l = inputs[1].pointer(r.x, y), out = target.pointer(r.x, y)
            if shadowHalo == nil, mode == .normal || mode == .sourceOver {
                // The common case in one pass: source-over of the layer at its opacity.
                for i in 0..<r.width {
                    let s = l[i] * opacity
                    out[i] = s + image[i] * (1 - s[3])
                }
                continue
            }
            out.update(from: image, count: r.width)
            if let h = shadowHalo {
                let s = inputs[2].pointer(r.x + h, y + h)
                for i in 0..<r.width { layer[i] = (l[i] + s[i] * (1 - l[i][3])) * opacity }
            } else {
                for i in 0..<r.width { layer[i] = l[i] * opacity }
            }
            mode.composite(layer, onto: out, count: r.width)
        }
    }
}
