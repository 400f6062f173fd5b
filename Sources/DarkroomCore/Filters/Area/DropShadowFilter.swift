/// The Decorator chapter's drop shadow (CGContextSetShadowWithColor): the image's alpha, tinted,
/// offset and blurred, composited under the image (source-over).
///
/// `offset` is in image coordinates (x right, y down), so the default [−25, 15] casts the shadow
/// left and down; it is rounded to whole pixels (the blur hides the fraction). `blur` is treated
/// as a Gaussian radius, sigma = blur, exactly as `gaussian_blur` (CG documents no formula).
public struct DropShadowFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "drop_shadow", displayName: "Drop Shadow", categories: ["composite", "stylize"],
        description: "Casts the image's shadow: its alpha tinted with the colour, offset, blurred (sigma = blur) "
            + "and drawn under the image. canvas=grow enlarges the canvas so the whole shadow fits.",
        parameters: [
            ParameterDescriptor("offset", .point, "Where the shadow falls, x right and y down, in px or % of the size.",
                                default: .point(Length(-25), Length(15)), unit: "px"),
            ParameterDescriptor("blur", .scalar, "Blur of the shadow: a Gaussian standard deviation in pixels.",
                                default: .number(20), min: 0, slider: 0...100, unit: "px"),
            ParameterDescriptor("color", .color, "The shadow's colour; its alpha is the shadow's opacity.",
                                default: .color(RGBA(0, 0, 0, 1.0 / 3))),
            ParameterDescriptor("canvas", .choice(["same", "grow"]),
                                "same keeps the image's size (the shadow is cut at the edges); grow makes room for it.",
                                default: .choice("same")),
        ])

    public let offset: (x: Length, y: Length)
    public let color: RGBA
    public let growsCanvas: Bool
    private let blur: GaussianBlur

    public init(parameters: ResolvedParameters) {
        let o = parameters.point("offset") ?? (Length(-25), Length(15))
        offset = (o.0, o.1)
        color = parameters.color("color") ?? RGBA(0, 0, 0, 1.0 / 3)
        growsCanvas = parameters.choice("canvas") == "grow"
        blur = GaussianBlur(sigma: parameters.number("blur") ?? 20)
    }

    public var isIdentity: Bool { color.a == 0 && !growsCanvas }

    /// Where things land on the output canvas for an input of a given size.
    struct Layout {
        var size: Size
        /// The output position of the input's top-left pixel.
        var image: (x: Int, y: Int)
        /// The output position of the unblurred shadow's top-left pixel.
        var shadow: (x: Int, y: Int)
    }

    func layout(for input: Size) -> Layout {
        let dx = Int(offset.x.pixels(of: input.width).rounded())
        let dy = Int(offset.y.pixels(of: input.height).rounded())
        guard growsCanvas else { return Layout(size: input, image: (0, 0), shadow: (dx, dy)) }
        let shadowRect = Rect(x: dx, y: dy, width: input.width, height: input.height).expanded(by: blur.halo)
        let bounds = Rect(size: input).union(shadowRect)
        return Layout(size: bounds.size, image: (-bounds.x, -bounds.y), shadow: (dx - bounds.x, dy - bounds.y))
    }

    public func outputSize(for input: Size) -> Size { layout(for: input).size }

    public func inputRegion(for output: Rect, inputSize: Size) -> Rect {
        let l = layout(for: inputSize)
        var image = output, shadow = output
        image.x -= l.image.x; image.y -= l.image.y
        shadow.x -= l.shadow.x; shadow.y -= l.shadow.y
        return image.union(shadow.expanded(by: blur.halo))
    }

    public func apply(to input: Image, executor: TileExecutor) -> Image {
        let l = layout(for: input.size), h = blur.halo, tint = color.pixel
        // The shadow is drawn over the canvas plus the blur's halo, so the blur near the canvas
        // edge reads the real (transparent or shadowed) surroundings rather than extended edges.
        let source = executor.render(size: Size(width: l.size.width + 2 * h, height: l.size.height + 2 * h)) { tile, writer in
            for y in tile.y..<tile.maxY {
                for x in tile.x..<tile.maxX {
                    writer[x, y] = tint * input.alpha(x - h - l.shadow.x, y - h - l.shadow.y)
                }
            }
        }
        let shadow = blur.apply(to: source, executor: executor)
        return executor.render(size: l.size) { tile, writer in
            for y in tile.y..<tile.maxY {
                for x in tile.x..<tile.maxX {
                    let p = input.pixelOrClear(x - l.image.x, y - l.image.y)
                    writer[x, y] = p + shadow[x + h, y + h] * (1 - p[3])
                }
            }
        }
    }
}

extension Image {
    /// The pixel at (x, y), or transparent outside the image.
    fileprivate func pixelOrClear(_ x: Int, _ y: Int) -> Pixel {
        x >= 0 && y >= 0 && x < width && y < height ? self[x, y] : .zero
    }

    /// The alpha at (x, y), or 0 outside the image.
    fileprivate func alpha(_ x: Int, _ y: Int) -> Float { pixelOrClear(x, y)[3] }
}
