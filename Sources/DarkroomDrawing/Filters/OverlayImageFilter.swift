import DarkroomCore

/// The Decorator's and the cookbook's draw modes of an image over the image: at a point
/// (`at`, or `gravity` + `margin`) at its natural size or scaled (`width`/`height`), into a
/// rectangle (`rect` with `fit`), or tiled as a pattern (`tile`, with `tile_mode` and
/// `offset`); with `opacity` and a `blend` mode. The image is a raster file (decoded once by
/// the asset store) or an SVG document (rendered by librsvg at the size it is drawn).
public struct OverlayImageFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "overlay_image", displayName: "Overlay Image", categories: ["composite"],
        description: "Draws an image file or SVG (a watermark, a stamp) over the image: at a point, in a rectangle or tiled, "
            + "with an opacity and a blend mode.",
        counterpart: "CISourceOverCompositing, drawAtPoint / drawInRect / drawAsPatternInRect / vips composite",
        parameters: [
            ParameterDescriptor("image", .graphic, "The file to draw, in any format `darkroom formats` lists (an SVG is drawn as a vector), relative to the config's folder.",
                                required: true),
        ] + Placement.parameters(what: "the image") + [
            ParameterDescriptor("rect", .rect, "Draw it into this rectangle [x, y, width, height] (px or %), fitted by fit.", unit: "px"),
            ParameterDescriptor("fit", .choice(Fit.allCases.map(\.rawValue)),
                                "How it fills rect: stretch (exactly), inside (aspect kept, all of it), cover (aspect kept, cut to rect).",
                                default: .choice(Fit.inside.rawValue)),
            ParameterDescriptor("width", .length, "Scale it to this width (px or % of the image's width); alone, the height follows the aspect.",
                                min: 0, unit: "px"),
            ParameterDescriptor("height", .length, "Scale it to this height (px or % of the image's height); alone, the width follows the aspect.",
                                min: 0, unit: "px"),
            ParameterDescriptor("opacity", .scalar, "1 draws it as it is, 0 not at all.",
                                default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
            .blendMode(),
            ParameterDescriptor("tile", .boolean, "Repeat it over the whole image (a pattern) instead of drawing it once.",
                                default: .bool(false)),
            ParameterDescriptor("tile_mode", .choice(["repeat", "mirror"]), "Tiles as they are, or mirrored at every other edge (seamless).",
                                default: .choice("repeat")),
            ParameterDescriptor("offset", .point, "The pattern's phase: where one tile's top-left corner lies.",
                                default: .point(Length(0), Length(0)), unit: "px"),
        ],
        examples: [
            "image=stamp.png at=[3,4] opacity=0.7",
            "image=grey.png at=[-4,-5]",
            "image=wide.png at=[50%,90%] opacity=random",
            "image=stamp.png gravity=south_east margin=2 blend=multiply",
            "image=stamp.png rect=[2,3,50%,40%] fit=cover",
            "image=stamp.png width=20 blend=source_in",
            "image=stamp.png tile=true tile_mode=mirror offset=[5,-3]",
            "image=wide.png tile=true width=13 offset=[2,2]",
            "image=logo.svg gravity=center width=60%",
            "image=logo.svg tile=true height=9 blend=xor",
        ])

    let graphic: Graphic
    let placement: Placement
    let rect: [Length]?
    let fit: Fit
    let width: Length?, height: Length?
    let opacity: Double
    let blend: BlendMode
    let tile: EdgeMode?
    let offset: (x: Length, y: Length)

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        graphic = try Graphic(p.graphic("image"))
        placement = try Placement.read(p)
        rect = parameters.lengths("rect")
        fit = p.choice("fit", as: Fit.self)
        width = parameters.length("width")
        height = parameters.length("height")
        opacity = p.number("opacity")
        blend = p.blendMode()
        tile = p.bool("tile") ? (p.choice("tile_mode") == "mirror" ? .mirror : .repeat) : nil
        let o = p.point("offset")
        offset = (o.0, o.1)
        let placed = parameters.point("at") != nil || parameters.choice("gravity") != nil
        if rect != nil, placed || width != nil || height != nil {
            throw ParameterError("rect places and sizes the image: give it without at, gravity, width or height")
        }
        if tile != nil, placed || rect != nil {
            throw ParameterError("a tiled image covers the whole image: give its phase with offset, not at, gravity or rect")
        }
        if graphic.naturalSize == nil, rect == nil, width == nil || height == nil {
            throw ParameterError("\(graphic.asset.identity.path): the SVG document has no width, height or viewBox: give width and height, or rect")
        }
        // An image at its natural size (a watermark) is composited pixel for pixel, tiled or
        // not, in Swift; scaled, cairo resamples it (an SVG loaded librsvg, and cairo, above).
        if rect != nil || width != nil || height != nil { try DrawingLibraries.require(.cairo) }
    }

    public var isIdentity: Bool { opacity == 0 && blend.isBounded }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let (origin, size, clip) = placed(in: input)
        let layer = graphic.layer(origin: origin, size: size, edge: tile ?? .transparent, clip: clip, in: input)
        return KernelPlan(CompositeKernel(size: input, layer: layer, mode: blend, opacity: Float(opacity)))
    }

    /// The drawn image's top-left corner, its size, and the rectangle it is cut to (cover).
    func placed(in input: Size) -> (origin: (x: Int, y: Int), size: Size, clip: Rect?) {
        func px(_ l: Length, _ extent: Int) -> Int { Int(saturating: l.pixels(of: extent).rounded()) }
        if let rect {
            let box = Rect(x: px(rect[0], input.width), y: px(rect[1], input.height),
                           width: px(rect[2], input.width), height: px(rect[3], input.height))
            let drawn = fit.place(graphic.naturalSize ?? (Double(box.width), Double(box.height)), in: box)
            return ((drawn.x, drawn.y), drawn.size, fit == .cover ? box : nil)
        }
        let natural = graphic.naturalSize ?? (0, 0)
        var w = width.map { $0.pixels(of: input.width) }, h = height.map { $0.pixels(of: input.height) }
        if w == nil, let h, natural.height > 0 { w = h * natural.width / natural.height }
        if h == nil, let w, natural.width > 0 { h = w * natural.height / natural.width }
        let size = Size(width: Int(saturating: (w ?? natural.width).rounded()), height: Int(saturating: (h ?? natural.height).rounded()))
        if tile != nil { return ((px(offset.x, input.width), px(offset.y, input.height)), size, nil) }
        return (placement.origin(of: size, in: input), size, nil)
    }
}
