import CDarkroomDraw
import DarkroomCore

/// Text over the image, laid out by Pango and drawn by cairo: a credit line, a caption, a date.
/// Placeholders (`{stem}`, `{exif.Artist}` …) are filled per file, so one config stamps each
/// photo with its own line. The block (text, outline, background box) is rendered once per job,
/// then composited like an image at its natural size.
public struct DrawTextFilter: RegionFilter {
    public static let descriptor = FilterDescriptor(
        name: "draw_text", displayName: "Draw Text", categories: ["composite"],
        description: "Draws text (with {stem}, {name}, {date}, {exif.Artist}, {exif.Copyright}, {exif.DateTimeOriginal} "
            + "filled per file) over the image.",
        counterpart: "vips text (Pango)",
        parameters: [
            ParameterDescriptor("text", .text, "The text; placeholders " + InputFacts.names.map { "{\($0)}" }.joined(separator: ", ")
                                + " are filled per file ({{ and }} write braces).", required: true),
            ParameterDescriptor("font", .text, "A Pango font description: family, style, weight (\"DejaVu Sans Bold\").",
                                default: .text("DejaVu Sans")),
            ParameterDescriptor("size", .length, "The font size, in px or % of the image's height.",
                                default: .length(Length(4, percent: true)), min: 0, slider: 8...120, unit: "px"),
            ParameterDescriptor("color", .color, "The text's colour.", default: .color(RGBA(1, 1, 1))),
        ] + Placement.parameters(what: "the text block", gravity: .south_east, margin: Length(2, percent: true)) + [
            ParameterDescriptor("opacity", .scalar, "1 draws it as it is, 0 not at all.",
                                default: .number(1), min: 0, max: 1, slider: 0...1, identity: .number(0)),
            .blendMode(),
            ParameterDescriptor("stroke", .color, "An outline around the letters in this colour (none unless given)."),
            ParameterDescriptor("stroke_width", .length, "The outline's width outside the letters, in px or % of the font size.",
                                default: .length(Length(2)), min: 0, max: 1000, slider: 0...10, unit: "px"),
            ParameterDescriptor("background", .color, "A box behind the text in this colour (none unless given)."),
            ParameterDescriptor("padding", .length, "Room between the text and the edges of its box, in px or % of the font size.",
                                default: .length(Length(0)), min: 0, slider: 0...50, unit: "px"),
            ParameterDescriptor("align", .choice(["left", "center", "right"]), "How the lines of a block line up.",
                                default: .choice("left")),
            ParameterDescriptor("max_width", .length, "Wrap lines longer than this, in px or % of the image's width (no wrapping unless given).",
                                min: 1, unit: "px"),
        ],
        examples: [
            "text=Hello size=12 at=[2,3]",
            "text=\"Ag {stem}\" size=30% gravity=center stroke=black stroke_width=2 color=#ffcc00",
            "text=\"a long line that wraps\" max_width=50% background=#00000080 padding=3 align=center blend=difference",
            "text=x size=9 gravity=south_west margin=1 opacity=random blend=destination_out",
        ])

    let text: String
    let font: String
    let size: Length
    let color: RGBA
    let placement: Placement
    let opacity: Double
    let blend: BlendMode
    let stroke: RGBA?
    let strokeWidth: Length
    let background: RGBA?
    let padding: Length
    let align: Int32
    let maxWidth: Length?
    private let cache = Once<TextBox, Result<RenderedImage?, DrawFailure>>()

    /// What the rendered block depends on besides the filter's own values: sizes in pixels.
    private struct TextBox: Hashable, Sendable {
        var size: Double, maxWidth: Double
    }

    public init(parameters: ResolvedParameters) throws(ParameterError) {
        try DrawingLibraries.require(.pango)
        let p = Self.described(parameters)
        text = p.text("text")
        font = p.text("font")
        size = p.length("size")
        color = p.color("color")
        placement = try Placement.read(p, otherwise: .south_east)
        opacity = p.number("opacity")
        blend = p.blendMode()
        stroke = parameters.color("stroke")
        strokeWidth = p.length("stroke_width")
        background = parameters.color("background")
        padding = p.length("padding")
        align = ["left": Int32(DR_ALIGN_LEFT), "center": Int32(DR_ALIGN_CENTER), "right": Int32(DR_ALIGN_RIGHT)][p.choice("align")]!
        maxWidth = parameters.length("max_width")
    }

    public var isIdentity: Bool { (opacity == 0 && blend.isBounded) || (text.isEmpty && background == nil) }

    public func outputSize(for input: Size) -> Size { input }

    public func plan(for input: Size) -> KernelPlan {
        let px = size.pixels(of: input.height)
        let box = TextBox(size: px, maxWidth: maxWidth?.pixels(of: input.width) ?? 0)
        let layer: any Layer
        switch cache.value(for: box, { render(box) }) {
        case .success(let block?):
            layer = PlacedImageLayer(image: block, origin: placement.origin(of: block.size, in: input), in: input)
        case .success(nil):
            layer = ColorLayer(color: .zero, coverage: Rect(x: 0, y: 0, width: 0, height: 0))
        case .failure(let failure):
            layer = FailedLayer(failure.message)
        }
        return KernelPlan(CompositeKernel(size: input, layer: layer, mode: blend, opacity: Float(opacity)))
    }

    /// The text block drawn by Pango and cairo; nil when there is nothing to draw (an empty
    /// text, a size of 0); a failure when Pango fails or the block would be larger than
    /// ``Graphic/largestDrawn``.
    private func render(_ box: TextBox) -> Result<RenderedImage?, DrawFailure> {
        guard box.size >= 0.5 else { return .success(nil) }
        func ofSize(_ l: Length) -> Double { l.isPercent ? l.value / 100 * box.size : l.value }
        func rgba(_ c: RGBA?) -> (Double, Double, Double, Double) { c.map { ($0.r, $0.g, $0.b, $0.a) } ?? (0, 0, 0, 0) }
        return text.withCString { textPointer in
            font.withCString { fontPointer in
                var spec = dr_text()
                spec.text = textPointer
                spec.font = fontPointer
                spec.size = box.size
                spec.max_width = box.maxWidth
                spec.align = align
                spec.color = rgba(color)
                spec.stroke = rgba(stroke)
                spec.stroke_width = stroke == nil ? 0 : ofSize(strokeWidth)
                spec.background = rgba(background)
                spec.padding = ofSize(padding)
                var (w, h) = (Int32(0), Int32(0))
                var message = [CChar](repeating: 0, count: 256)
                guard dr_text_measure(&spec, &w, &h, &message, message.count) == 0 else {
                    return .failure(DrawFailure(message: "the text could not be laid out (\(String(cMessage: message)))"))
                }
                guard w > 0, h > 0 else { return .success(nil) }
                guard Int(w) * Int(h) <= Graphic.largestDrawn else {
                    return .failure(DrawFailure(message: "the text block would be \(w)×\(h), more than the \(Graphic.largestDrawn) "
                                                + "pixels a drawn block may have: make it smaller"))
                }
                var pixels = [UInt32](repeating: 0, count: Int(w) * Int(h))
                let status = pixels.withUnsafeMutableBufferPointer { dr_text_render(&spec, w, h, $0.baseAddress, &message, message.count) }
                guard status == 0 else { return .failure(DrawFailure(message: "the text could not be drawn (\(String(cMessage: message)))")) }
                let identity = AssetIdentity(path: "draw_text", sha256: "")
                return .success(RenderedImage(identity: identity, size: Size(width: Int(w), height: Int(h)), argb: pixels))
            }
        }
    }
}
