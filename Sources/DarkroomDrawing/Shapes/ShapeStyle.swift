import CDarkroomDraw
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
    /// The fill's and the stroke's 8-bit tables.
    let tables: PaintTables

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
        tables = PaintTables(fill: fill, stroke: stroke)
    }

    /// Paints the fill, then the stroke, over `target` (already holding the image under them),
    /// rasterising on `canvas` (over the target's rectangle) only where each can reach.
    func paint(into target: RegionTarget, canvas: CoverageCanvas) {
        paint(over: target.rect, canvas: canvas) { target.pointer($0, $1) }
    }

    /// Paints over the pixels of `rect`, pixel (x, y) at `pixel(x, y)` (with the rest of its row after it).
    func paint(over r: Rect, canvas: CoverageCanvas, pixel: (Int, Int) -> UnsafeMutablePointer<Pixel>) {
        forEachCoverageRow(over: r, canvas: canvas) { color, _, x, y, coverage, count in
            Self.composite(color, coverage, count, blend: blend, onto: pixel(x, y))
        }
    }

    /// The same over opaque 8-bit RGB pixels (`target` holding the image under them): each pixel
    /// is composited in float as above and rounded back at once, as cairo does on an 8-bit
    /// surface, so where shapes overlap the result may be 1/255 from the float path's (which
    /// rounds once, at the end); elsewhere it is the same.
    func paint(into target: RGB8RegionTarget, canvas: CoverageCanvas) {
        let simple = blend == .normal || blend == .sourceOver
        var floats = [Pixel]()
        forEachCoverageRow(over: target.rect, canvas: canvas) { color, table, x, y, coverage, count in
            let row = target.pointer(x, y)
            if simple {
                // In C: one pass reading, compositing and rounding each covered pixel.
                withUnsafePointer(to: color) { c in
                    c.withMemoryRebound(to: Float.self, capacity: 4) { color in
                        dr_paint_rgb8_over(row, coverage, Int32(count), color, table)
                    }
                }
                return
            }
            if floats.count < count { floats = [Pixel](repeating: .zero, count: count) }
            floats.withUnsafeMutableBufferPointer { f in
                let f = f.baseAddress!
                for i in 0..<count { f[i] = Pixel(Float(row[3 * i]) / 255, Float(row[3 * i + 1]) / 255, Float(row[3 * i + 2]) / 255, 1) }
                Self.composite(color, coverage, count, blend: blend, onto: f)
                // Clamped and rounded as the encoders quantise (dr_quantise_rgb).
                for i in 0..<3 * count { row[i] = UInt8(min(max(f[i / 3][i % 3], 0), 1) * 255 + 0.5) }
            }
        }
    }

    /// Calls `body(color, table, x, y, coverage, count)` for the fill, then the stroke (with its
    /// colour's 8-bit table), on each row of `r` they can reach: `coverage[i]` is the coverage of
    /// pixel (`x + i`, `y`), i < count.
    private func forEachCoverageRow(over r: Rect, canvas: CoverageCanvas,
                                    _ body: (Pixel, UnsafePointer<dr_paint_table>, Int, Int, UnsafePointer<UInt8>, Int) -> Void) {
        for isFill in [true, false] {
            guard let color = isFill ? fill : stroke else { continue }
            let box = isFill ? fillBox : strokeBox
            // An unbounded operator (source_in, clear …) also changes what the shape misses.
            let area = blend.isBounded ? (box.map { $0.intersection(r) } ?? Rect(x: 0, y: 0, width: 0, height: 0)) : r
            if area.isEmpty { continue }
            withUnsafePointer(to: isFill ? tables.fill : tables.stroke) { table in
                canvas.withCoverage(of: path, rule: rule, stroke: isFill ? nil : style, over: area) { y, coverage in
                    body(color, table, area.x, y, coverage, area.width)
                }
            }
        }
    }

    /// `color` through `coverage` (0…255) onto `count` premultiplied float pixels by `blend`.
    private static func composite(_ color: Pixel, _ coverage: UnsafePointer<UInt8>, _ count: Int, blend: BlendMode,
                                  onto row: UnsafeMutablePointer<Pixel>) {
        let simple = blend == .normal || blend == .sourceOver, scale: Float = 1 / 255
        for i in 0..<count where coverage[i] != 0 || !simple {
            let s = color * (Float(coverage[i]) * scale)
            row[i] = simple ? s + row[i] * (1 - s[3]) : blend.composite(s, onto: row[i])
        }
    }
}

/// What full coverage of a shape's fill and of its stroke makes of each 8-bit sample, channel by
/// channel (`dr_paint_rgb8_table`): the 8-bit path's inside pixels are looked up (or, when a
/// linear form gives the same 256 results, computed 16 at a time), not composited one by one.
/// A class, so the shapes that strips copy around share one copy (1.6 kB).
final class PaintTables: Sendable {
    let fill: dr_paint_table
    let stroke: dr_paint_table

    init(fill: Pixel?, stroke: Pixel?) {
        func table(_ color: Pixel?) -> dr_paint_table {
            var table = dr_paint_table()
            guard var color else { return table }
            withUnsafePointer(to: &color) { $0.withMemoryRebound(to: Float.self, capacity: 4) { dr_paint_rgb8_table($0, &table) } }
            return table
        }
        self.fill = table(fill)
        self.stroke = table(stroke)
    }
}
