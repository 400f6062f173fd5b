import DarkroomCore

/// Core Image's blend modes and compositing operators as one filter: the image with a layer — a
/// colour, an image file or SVG fitted to the image, or a gradient — combined by a W3C blend mode or a
/// Porter-Duff operator (``BlendMode``), at an opacity, on premultiplied pixels.
public struct BlendFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "blend", displayName: "Blend", categories: ["composite"],
        description: "Combines the image with a layer (a colour, an image file or a gradient) by a blend mode or compositing operator.",
        counterpart: "CI*BlendMode, CI*Compositing / vips composite2",
        parameters: [
            ParameterDescriptor("mode", .choice(BlendMode.names),
                                "normal … luminosity (W3C Compositing and Blending Level 1), or a Porter-Duff operator (clear … plus).",
                                default: .choice(BlendMode.normal.rawValue)),
            ParameterDescriptor("color", .color, "The layer is this colour over the whole image."),
            ParameterDescriptor("image", .graphic, "The layer is this image file or SVG, fitted to the image by fit."),
            ParameterDescriptor("fit", .choice(Fit.allCases.map(\.rawValue)),
                                "How the image layer fills the image: stretch, inside (aspect kept, all of it) or cover (aspect kept, cut).",
                                default: .choice(Fit.cover.rawValue)),
            ParameterDescriptor("opacity", .scalar, "The layer's opacity: 1 as it is, 0 not at all (the operator then sees a transparent layer).",
                                default: .number(1), min: 0, max: 1, slider: 0...1),
        ] + GradientParameters.layer,
        examples: [
            "color=#3366cc80 mode=overlay",
            "color=random mode=hue opacity=random",
            "color=#ff000040 mode=source_in",
            "image=stamp.png mode=difference fit=stretch",
            "image=logo.svg fit=inside mode=destination_atop",
            "image=grey.png mode=luminosity fit=cover opacity=0.5",
        ])

    enum Source: Sendable {
        case color(RGBA)
        case image(Graphic)
        case gradient(Gradient)
    }

    let mode: BlendMode
    let source: Source
    let fit: Fit
    let opacity: Double

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        let p = Self.described(parameters)
        mode = p.blendMode("mode")
        fit = p.choice("fit", as: Fit.self)
        opacity = p.number("opacity")
        let gradient = parameters.choice("gradient").flatMap(Gradient.Shape.init(rawValue:))
        switch (parameters.color("color"), parameters.has("image"), gradient) {
        case (let color?, false, nil): source = .color(color)
        case (nil, true, nil):
            // A colour layer is composited in Swift; an image is fitted (scaled) and a gradient
            // painted by cairo.
            try DrawingLibraries.require(.cairo)
            source = .image(try Graphic(p.graphic("image")))
        case (nil, false, let shape?):
            try DrawingLibraries.require(.cairo)
            if let key = GradientParameters.misplaced(for: shape, in: parameters) {
                throw ParameterError("belongs to a \(shape == .linear ? "radial" : "linear") gradient, not \(shape.rawValue)", at: [.key(key)])
            }
            source = .gradient(try Gradient(shape, p))
        default: throw ParameterError("give the layer as one of color, image or gradient")
        }
        if gradient == nil, let key = (GradientParameters.layer.dropFirst()).map(\.name).first(where: parameters.has) {
            throw ParameterError("is a gradient layer's key: give gradient: linear or radial with it", at: [.key(key)])
        }
    }

    /// A transparent layer changes nothing under the bounded operators.
    public var isIdentity: Bool { opacity == 0 && mode.isBounded }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let whole = Rect(size: input)
        let layer: any Layer
        switch source {
        case .color(let c):
            layer = ColorLayer(color: c.pixel, coverage: whole)
        case .image(let graphic):
            let drawn = fit.place(graphic.naturalSize ?? (Double(input.width), Double(input.height)), in: whole)
            layer = graphic.layer(origin: (drawn.x, drawn.y), size: drawn.size, edge: .transparent, clip: whole, in: input)
        case .gradient(let gradient):
            layer = gradient.layer(in: input)
        }
        return KernelPlan(CompositeKernel(size: input, layer: layer, mode: mode, opacity: Float(opacity)))
    }
}
