import DarkroomCore

/// A shape as `draw` paints it: its outline, fill and stroke, each optional, with their colour
/// (premultiplied, opacity applied), the fill rule, the stroke style and the blend mode.
public struct DrawnShape: Sendable {
    public var geometry: ShapeGeometry
    public var fill: RGBA?
    public var stroke: RGBA?
    /// Join, miter limit and cap; the width and dash come from ``lineWidth`` and ``dash``.
    public var style: StrokeStyle
    /// px, or % of the image's (a pattern cell's) shorter side.
    public var lineWidth: Length
    public var dash: [Length]
    public var fillRule: FillRule
    public var opacity: Double
    public var blend: BlendMode
}

/// A shape placed on an image of a known size: its path, and the pixels its fill and its stroke
/// can touch (cairo's extents), so a strip skips the shapes that miss it.
struct PlacedShape: Sendable {
    let path: Path
    /// Premultiplied colours, opacity applied.
    let fill: Pixel?
    let stroke: Pixel?
    let style: StrokeStyle
    let rule: FillRule
    let blend: BlendMode
    let fillBox: Rect?
    let strokeBox: Rect?

    init(_ shape: DrawnShape, in size: Size) {
        path = shape.geometry.path(in: size)
        func color(_ c: RGBA?) -> Pixel? { c.map { $0.pixel * Float(shape.opacity) } }
        var style = shape.style
        style.width = shape.lineWidth.pixels(of: size.shorterSide)
        style.dash = shape.dash.map { $0.pixels(of: size.shorterSide) }
        self.style = style
        fill = color(shape.fill)
        stroke = style.width > 0 ? color(shape.stroke) : nil
        rule = shape.fillRule
        blend = shape.blend
        fillBox = fill == nil ? nil : path.extents()
        strokeBox = stroke == nil ? nil : path.extents(stroke: style)
    }

    /// Paints the fill, then the stroke, over `target` (already holding the image under them),
    /// rasterising on `canvas` (over the target's rectangle) only where each can reach.
    func paint(into target: RegionTarget, canvas: CoverageCanvas) {
        paint(over: target.rect, canvas: canvas) { target.pointer($0, $1) }
    }

    /// Paints over the pixels of `rect`, pixel (x, y) at `pixel(x, y)` (with the rest of its row after it).
    func paint(over r: Rect, canvas: CoverageCanvas, pixel: (Int, Int) -> UnsafeMutablePointer<Pixel>) {
        for (color, box, stroke) in [(fill, fillBox, nil as StrokeStyle?), (stroke, strokeBox, style)] {
            guard let color else { continue }
            // An unbounded operator (source_in, clear …) also changes what the shape misses.
            let area = blend.isBounded ? (box.map { $0.intersection(r) } ?? Rect(x: 0, y: 0, width: 0, height: 0)) : r
            if area.isEmpty { continue }
            let simple = blend == .normal || blend == .sourceOver, scale: Float = 1 / 255
            canvas.withCoverage(of: path, rule: rule, stroke: stroke, over: area) { y, coverage in
                let row = pixel(area.x, y)
                for i in 0..<area.width where coverage[i] != 0 || !simple {
                    let s = color * (Float(coverage[i]) * scale)
                    row[i] = simple ? s + row[i] * (1 - s[3]) : blend.composite(s, onto: row[i])
                }
            }
        }
    }
}
