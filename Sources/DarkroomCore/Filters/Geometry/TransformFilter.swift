/// CIAffineTransform / CGContextConcatCTM, the Decorator chapter's transform: rotate, scale,
/// translate, shear and matrix steps applied in the order written, about a pivot.
///
/// Coordinates have y pointing down with the origin at the image's top-left corner, pixel
/// (i, j) covering [i, i+1) × [j, j+1). A positive angle turns clockwise on screen, a negative
/// one counter-clockwise. `transform {rotate: -45deg, translate: [-50%, 12.5%]}` rotates 45°
/// counter-clockwise about the top-left corner, then moves the result by (−w/2, +h/8).
/// Each output pixel is inverse-mapped and sampled bilinearly; outside the input is transparent.
public struct TransformFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "transform", displayName: "Affine Transform", categories: ["geometry"],
        description: """
            Rotates, scales, translates and shears, in the order the steps are written, about \
            the pivot. canvas: same keeps the input's size (what moves out is cut off); grow \
            makes the output the bounding box of the whole transformed image (translation then \
            only shifts it by a fraction of a pixel). Uncovered pixels get the background colour. \
            Bilinear sampling: shrink below half size with resize instead, which antialiases.
            """,
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
        ])

    public var steps: [TransformStep]
    public var pivot: (x: Length, y: Length)
    public var grow: Bool
    public var background: RGBA

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        var steps = [TransformStep]()
        for (name, value) in parameters.entries {
            if let step = try TransformStep.parse(name, value) { steps.append(step) }
        }
        self.steps = steps
        pivot = parameters.point("pivot") ?? (Length(0), Length(0))
        grow = parameters.choice("canvas") == "grow"
        background = parameters.color("background") ?? .transparent
        // Only translate depends on the image size, so any size tells whether the map is invertible.
        guard affine(for: Size(width: 100, height: 100)).inverted != nil else {
            throw ParameterError("the transform collapses the image to a line or a point (a zero scale or a singular matrix)")
        }
    }

    /// The forward map from input coordinates to the (same-canvas) output coordinates.
    public func affine(for size: Size) -> AffineTransform {
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

    public var isIdentity: Bool {
        background.a == 0 && [Size(width: 1, height: 1), Size(width: 640, height: 480)].allSatisfy { affine(for: $0).isIdentity }
    }

    public func outputSize(for input: Size) -> Size { placement(for: input).size }

    public func inputRegion(for output: Rect, inputSize: Size) -> Rect {
        guard let inverse = placement(for: inputSize).map.inverted else { return Rect(size: inputSize) }
        // One more pixel each side for the bilinear taps.
        return inverse.boundingBox(of: output).expanded(by: 1)
    }

    public func apply(to input: Image, executor: TileExecutor) -> Image {
        let (map, size) = placement(for: input.size)
        guard let inv = map.inverted else { return input }
        let bg = background.pixel
        let hasBackground = bg != .zero
        return input.pixels.withUnsafeBufferPointer { source in
            let sampler = BilinearSampler(source: source, width: input.width, height: input.height)
            return executor.render(size: size) { tile, writer in
                for y in tile.y..<tile.maxY {
                    let out = writer.row(y, from: tile.x)
                    // Source position of the centre of output pixel (tile.x, y), in index space.
                    let start = inv.apply(Double(tile.x) + 0.5, Double(y) + 0.5)
                    var sx = start.x - 0.5, sy = start.y - 0.5
                    for i in 0..<tile.width {
                        var p = sampler.sample(sx, sy)
                        if hasBackground { p += bg * (1 - p[3]) }
                        out[i] = p
                        sx += inv.a
                        sy += inv.b
                    }
                }
            }
        }
    }
}
