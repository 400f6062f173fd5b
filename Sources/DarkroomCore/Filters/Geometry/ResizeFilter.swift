/// CILanczosScaleTransform / `vips resize`: scales an image to a box or by a factor with a
/// separable, antialiased kernel (the kernel widens with the shrink factor, as libvips' and
/// Pillow's reduce do, so shrinking never aliases).
///
/// With `fit: cover`, `gravity` says which part of the overflow is kept: a compass point, or
/// `attention | entropy` (as `vips thumbnail --smartcrop`): the window ``InterestMeasure`` picks,
/// the same measure `crop` uses, run as an analysis pass (``SmartResize``).
struct ResizeFilter: RegionFilter, SourceShrinkable, ContentAwareFilter {
    static let descriptor = FilterDescriptor(
        name: "resize", displayName: "Resize", categories: ["geometry"],
        description: """
            Scales to a width and/or height, or by a factor. With both width and height, fit \
            chooses how the aspect ratio is kept: stretch (ignore it), inside (fit in the box), \
            cover (fill the box, crop the centre), contain (fit, then pad to the box with \
            background). With only one side the other follows the aspect ratio.
            """,
        counterpart: "CILanczosScaleTransform / vips resize",
        parameters: [
            ParameterDescriptor("width", .integer, "Target width in pixels.", min: 1, max: 65535, slider: 16...4096, unit: "px"),
            ParameterDescriptor("height", .integer, "Target height in pixels.", min: 1, max: 65535, slider: 16...4096, unit: "px"),
            ParameterDescriptor("scale", .scalar, "Scale factor instead of a size (0.5 halves both sides).",
                                min: 0.0001, max: 100, slider: 0.1...2, identity: .number(1)),
            ParameterDescriptor("fit", .choice(ResizeFit.allCases.map(\.rawValue)),
                                "How a width × height box is filled: stretch, inside, cover or contain.",
                                default: .choice(ResizeFit.inside.rawValue)),
            ParameterDescriptor("kernel", .choice(ResamplingKernel.allCases.map(\.rawValue)),
                                "Interpolation: nearest, bilinear, bicubic or lanczos3.",
                                default: .choice(ResamplingKernel.lanczos3.rawValue)),
            ParameterDescriptor("no_upscale", .boolean, "Never enlarge: an image already smaller than the target keeps its size.",
                                default: .bool(false)),
            ParameterDescriptor("background", .color, "Padding colour for fit: contain.", default: .color(.transparent)),
            ParameterDescriptor("gravity", .choice(Gravity.allCases.map(\.rawValue) + InterestMeasure.allCases.map(\.rawValue)),
                                "With fit: cover, the part kept: center (default), a compass point (north, south_east, …), "
                                    + "or where the image is most interesting, as vips smartcrop: attention or entropy."),
        ],
        examples: [
            "width=23",
            "height=17 fit=contain background=#336699",
            "scale=random",
            "width=50 height=9 fit=cover",
            "width=15 height=40 fit=stretch kernel=bicubic",
            "scale=0.3 kernel=nearest",
        ])

    var target: ResizeTarget
    var fit: ResizeFit
    var kernel: ResamplingKernel
    var noUpscale: Bool
    var background: RGBA
    /// With `fit: cover`: where the kept window sits in the overflow (0 left or top, ½ centred,
    /// 1 right or bottom), from a compass `gravity` or, once measured, from an interest measure.
    var anchor: (x: Double, y: Double) = (0.5, 0.5)
    /// Set for `gravity: attention | entropy` with `fit: cover`: the anchor is then measured.
    var interest: InterestMeasure?
    /// Set when the source arrives pre-shrunk (see ``SourceShrinkable``): the plan is made for
    /// the original size and mapped onto the smaller source.
    var preShrunk: (original: Size, shrunk: Size)?

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let width = parameters.number("width").map { Int($0) }
        let height = parameters.number("height").map { Int($0) }
        if let scale = parameters.number("scale") {
            guard width == nil && height == nil else {
                throw ParameterError("give either scale or width/height, not both")
            }
            guard scale > 0 else { throw ParameterError("scale must be greater than 0, got \(scale)") }
            target = .scale(scale)
        } else {
            guard width != nil || height != nil else {
                throw ParameterError("give a width, a height or a scale (e.g. resize width=800)")
            }
            target = .box(width: width, height: height)
        }
        let p = Self.described(parameters)
        fit = p.choice("fit")
        kernel = p.choice("kernel")
        noUpscale = p.bool("no_upscale")
        background = p.color("background")
        if let gravity = parameters.choice("gravity") {
            guard fit == .cover, case .box(_?, _?) = target else {
                throw ParameterError("gravity places the window of fit: cover; give width, height and fit: cover with it")
            }
            anchor = Gravity(rawValue: gravity)?.anchor ?? anchor
            interest = InterestMeasure(rawValue: gravity)
        }
    }

    var analysis: (any AnalysisFilter)? { interest.map { _ in SmartResize(resize: self) } }

    var isIdentity: Bool { target == .scale(1) }

    func resizePlan(for input: Size) -> ResizePlan {
        guard let (original, shrunk) = preShrunk, input == shrunk else {
            return target.plan(for: input, fit: fit, noUpscale: noUpscale, anchor: anchor)
        }
        // A source drawn at the size this resize asks for (a PDF page, an SVG, never a 1/k
        // reduction, which is always at least twice that) is scaled by exactly shrunk ÷ original.
        let drawn = shrunk == sourceRenderSize(for: original)
        // A loader's 1/k reduction maps each k×k block to one pixel (a partial block at the far
        // edge still gives a whole pixel), so the exact factor is 1/k, not shrunk ÷ original.
        let k = drawn ? nil : [2, 4, 8].first { k in
            (original.width + k - 1) / k == shrunk.width && (original.height + k - 1) / k == shrunk.height
        }
        let fx = k.map { 1 / Double($0) } ?? Double(shrunk.width) / Double(original.width)
        let fy = k.map { 1 / Double($0) } ?? Double(shrunk.height) / Double(original.height)
        var p = target.plan(for: original, fit: fit, noUpscale: noUpscale, anchor: anchor).mapped(toSourceScaledBy: fx, fy)
        // Drawn at the picture's own size: copied, not resampled at a scale that misses 1 in the last bit.
        if drawn, abs(p.scaleX - 1) < 1e-9, abs(p.scaleY - 1) < 1e-9, abs(p.offsetX) < 1e-6, abs(p.offsetY) < 1e-6 {
            (p.scaleX, p.scaleY, p.offsetX, p.offsetY) = (1, 1, 0, 0)
        }
        return p
    }

    /// An empty input stays empty, as `apply` leaves it (there is no aspect ratio to keep).
    func outputSize(for input: Size) -> Size {
        input.area == 0 ? input : resizePlan(for: input).outputSize
    }

    /// Across, then down (placing the picture on the canvas); a copy when nothing changes.
    func plan(for input: Size) -> KernelPlan {
        guard input.area > 0 else { return KernelPlan(CopyKernel(inputSize: input, outputSize: input, origin: (0, 0))) }
        let p = resizePlan(for: input)
        if p.isIdentity(for: input) { return KernelPlan(CopyKernel(inputSize: input, outputSize: input, origin: (0, 0))) }
        let across = ResampleAcross(
            inputSize: input,
            weights: AxisWeights(kernel: kernel, sourceLength: input.width, outputLength: p.placement.width,
                                 scale: p.scaleX, offset: p.offsetX))
        let vertical = AxisWeights(kernel: kernel, sourceLength: input.height, outputLength: p.placement.height,
                                   scale: p.scaleY, offset: p.offsetY)
        let down = ResampleDown(
            inputSize: across.outputSize, weights: vertical, outputSize: p.outputSize, placement: p.placement,
            background: background.pixel,
            clampsOvershoot: across.weights.weights.contains { $0 < 0 } || vertical.weights.contains { $0 < 0 })
        return KernelPlan([.init(across, label: "across"), .init(down, sources: [.step(0)], label: "down")])
    }
}

extension ResizeFilter {
    func sourceReduction(for source: Size) -> Double {
        guard source.area > 0 else { return 1 }
        let p = target.plan(for: source, fit: fit, noUpscale: noUpscale)
        return min(p.scaleX, p.scaleY)
    }

    func sourceRenderSize(for source: Size) -> Size {
        let p = target.plan(for: source, fit: fit, noUpscale: noUpscale)
        let (w, h) = (Double(source.width), Double(source.height))
        switch (target, fit) {
        case (.box(_?, _?), .stretch):
            // Drawn at the larger of the two scales, aspect ratio kept; the resize stretches the other side.
            let s = max(1 / p.scaleX, 1 / p.scaleY)
            return Size(width: max(1, Int((w * s).rounded())), height: max(1, Int((h * s).rounded())))
        case (.box(_?, _?), .cover):
            // The picture before its overflow is cropped.
            return Size(width: max(1, Int((w / p.scaleX).rounded())), height: max(1, Int((h / p.scaleY).rounded())))
        default:
            return p.placement.size
        }
    }

    func forShrunkSource(original: Size, shrunk: Size) -> ResizeFilter {
        var copy = self
        copy.preShrunk = (original, shrunk)
        return copy
    }
}

