/// PocketCoreImage's inset and the picture frame (`vips embed`): a border of a colour around the
/// image, `all` sides alike or `top`, `right`, `bottom`, `left` each (px, or % of the image's
/// height for top and bottom and of its width for left and right). The image itself is copied
/// untouched, transparency included; only the new border takes the colour.
struct PadFilter: RegionFilter {
    static let descriptor = FilterDescriptor(
        name: "pad", displayName: "Pad", categories: ["geometry"],
        description: """
            Adds a border of color around the image: all sides alike, or top, right, bottom, \
            left each (px; % of the height for top and bottom, of the width for left and right). \
            A side given on its own overrides all.
            """,
        counterpart: "PocketCoreImage's inset / vips embed",
        parameters: [
            ParameterDescriptor("all", .length, "Every side (px or %).", default: .length(Length(0)), min: 0, max: 100_000,
                                slider: 0...100, identity: .length(Length(0)), unit: "px"),
            ParameterDescriptor("top", .length, "Top side (px or % of the height); overrides all.", min: 0, max: 100_000, slider: 0...100, unit: "px"),
            ParameterDescriptor("right", .length, "Right side (px or % of the width); overrides all.", min: 0, max: 100_000, slider: 0...100, unit: "px"),
            ParameterDescriptor("bottom", .length, "Bottom side (px or % of the height); overrides all.", min: 0, max: 100_000, slider: 0...100, unit: "px"),
            ParameterDescriptor("left", .length, "Left side (px or % of the width); overrides all.", min: 0, max: 100_000, slider: 0...100, unit: "px"),
            ParameterDescriptor("color", .color, "The border's colour.", default: .color(.black)),
        ],
        examples: [
            "top=3 left=20% color=#ff000080",
            "all=2 color=white",
        ])

    var top, right, bottom, left: Length
    var color: RGBA

    init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        let all = p.length("all")
        top = parameters.length("top") ?? all
        right = parameters.length("right") ?? all
        bottom = parameters.length("bottom") ?? all
        left = parameters.length("left") ?? all
        color = p.color("color")
    }

    var isIdentity: Bool { [top, right, bottom, left].allSatisfy { $0.value == 0 } }

    /// The border widths in pixels for an image of `input`.
    func sides(for input: Size) -> (top: Int, right: Int, bottom: Int, left: Int) {
        func px(_ l: Length, _ extent: Int) -> Int { Int(saturating: l.pixels(of: extent).rounded()) }
        return (px(top, input.height), px(right, input.width), px(bottom, input.height), px(left, input.width))
    }

    func outputSize(for input: Size) -> Size {
        let s = sides(for: input)
        return Size(width: input.width + s.left + s.right, height: input.height + s.top + s.bottom)
    }

    func plan(for input: Size) -> KernelPlan {
        let s = sides(for: input)
        return KernelPlan(PadKernel(inputSize: input, outputSize: outputSize(for: input), origin: (s.left, s.top),
                                    color: color.pixel))
    }
}

/// The input copied to `origin` on a canvas of `color`.
struct PadKernel: PixelKernel {
    let inputSize: Size
    let outputSize: Size
    /// Where the input's top-left pixel lands.
    let origin: (x: Int, y: Int)
    let color: Pixel

    var inputs: [KernelInput] { [KernelInput(size: inputSize, edge: .transparent)] }
    var preservesOpacity: Bool { color[3] >= 1 }
    var preservesGrey: Bool { color.isGrey }

    func inputRegions(for output: Rect) -> [Rect] {
        // Only the part over the image is read; a strip wholly in the border reads nothing.
        let inside = Rect(x: output.x - origin.x, y: output.y - origin.y, width: output.width, height: output.height)
            .intersection(Rect(size: inputSize))
        return [inside.isEmpty ? Rect(x: 0, y: 0, width: 0, height: 0) : inside]
    }

    func render(_ inputs: [RegionView], into target: RegionTarget) {
        let r = target.rect
        let x0 = min(max(origin.x, r.x), r.maxX), x1 = max(min(origin.x + inputSize.width, r.maxX), x0)
        for y in r.y..<r.maxY {
            let out = target.pointer(r.x, y)
            guard y >= origin.y, y < origin.y + inputSize.height, x1 > x0 else {
                out.update(repeating: color, count: r.width)
                continue
            }
            out.update(repeating: color, count: x0 - r.x)
            (out + (x0 - r.x)).update(from: inputs[0].pointer(x0 - origin.x, y - origin.y), count: x1 - x0)
            (out + (x1 - r.x)).update(repeating: color, count: r.maxX - x1)
        }
    }
}
