import CDarkroomDraw
import DarkroomCore

/// How a path's outline is stroked: cairo's (Quartz's, SVG's) line width, join, miter limit,
/// cap and dash.
public struct StrokeStyle: Sendable, Hashable {
    public enum Join: String, Sendable, CaseIterable { case miter, round, bevel }
    public enum Cap: String, Sendable, CaseIterable { case butt, round, square }

    public var width: Double = 2
    public var join: Join = .miter
    public var miterLimit: Double = 10
    public var cap: Cap = .butt
    /// On and off lengths in px; empty for a solid line.
    public var dash: [Double] = []
    public var dashOffset: Double = 0

    public init(width: Double = 2, join: Join = .miter, miterLimit: Double = 10, cap: Cap = .butt,
                dash: [Double] = [], dashOffset: Double = 0) {
        (self.width, self.join, self.miterLimit, self.cap, self.dash, self.dashOffset) = (width, join, miterLimit, cap, dash, dashOffset)
    }

    /// Calls `body` with the style as cairo's shim takes it.
    func withC<R>(_ body: (UnsafePointer<dr_stroke_style>) -> R) -> R {
        dash.withUnsafeBufferPointer { dashes in
            var s = dr_stroke_style()
            s.width = width
            s.join = Int32(join == .round ? DR_JOIN_ROUND.rawValue : join == .bevel ? DR_JOIN_BEVEL.rawValue : DR_JOIN_MITER.rawValue)
            s.miter_limit = miterLimit
            s.cap = Int32(cap == .round ? DR_CAP_ROUND.rawValue : cap == .square ? DR_CAP_SQUARE.rawValue : DR_CAP_BUTT.rawValue)
            s.dash = dashes.baseAddress
            s.dash_count = Int32(dashes.count)
            s.dash_offset = dashOffset
            return withUnsafePointer(to: &s, body)
        }
    }
}

/// The fill rule: nonzero winding or even-odd (Quartz's EOFill, SVG's `fill-rule`).
public enum FillRule: String, Sendable, CaseIterable {
    case nonzero, even_odd
}

/// Antialiased coverage (0…1) of a path over one rectangle of the image, rasterised by cairo.
/// Only that rectangle is rasterised, so a strip of the pipeline costs what its pixels cost.
public struct Coverage {
    public let rect: Rect
    let stride: Int
    let bytes: [UInt8]

    /// The coverage of `path` filled with `rule` (or of its outline, with `stroke`) over `rect`.
    public init(_ path: Path, rule: FillRule = .nonzero, stroke: StrokeStyle? = nil, in rect: Rect) {
        self.rect = rect
        stride = max(rect.width, 0)
        var bytes = [UInt8](repeating: 0, count: stride * max(rect.height, 0))
        let width = stride
        // cairo fails only when out of memory or on an invalid dash, which the config refused;
        // the coverage then stays empty rather than stopping the render.
        bytes.withUnsafeMutableBufferPointer { out in
            CoverageCanvas(rect).withCoverage(of: path, rule: rule, stroke: stroke, over: rect) { y, row in
                (out.baseAddress! + (y - rect.y) * width).update(from: row, count: width)
            }
        }
        self.bytes = bytes
    }

    /// The coverage of image pixel (`x`, `y`), inside `rect`.
    @inline(__always) public subscript(x: Int, y: Int) -> Float {
        Float(bytes[(y - rect.y) * stride + (x - rect.x)]) * (1 / 255)
    }
}

extension Path {
    /// The bounding box cairo gives the filled path, or its stroke (joins, caps and miters
    /// included), widened to whole pixels; nil when the path covers nothing.
    public func extents(stroke: StrokeStyle? = nil) -> Rect? {
        let elements = cElements
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        elements.withUnsafeBufferPointer { e in
            if let stroke {
                stroke.withC { dr_path_extents(e.baseAddress, Int32(e.count), $0, &x0, &y0, &x1, &y1) }
            } else {
                dr_path_extents(e.baseAddress, Int32(e.count), nil, &x0, &y0, &x1, &y1)
            }
        }
        guard x1 > x0 || y1 > y0, [x0, y0, x1, y1].allSatisfy(\.isFinite) else { return nil }
        // One pixel more each side for antialiasing; clamped far outside any image.
        func i(_ v: Double) -> Int { Int(min(max(v, -1e9), 1e9)) }
        let left = i(x0.rounded(.down)) - 1, top = i(y0.rounded(.down)) - 1
        return Rect(x: left, y: top, width: i(x1.rounded(.up)) + 1 - left, height: i(y1.rounded(.up)) + 1 - top)
    }
}

/// One A8 surface over a strip's rectangle, reused for every shape that reaches the strip (a
/// cairo surface and context per shape and strip would cost more than most shapes' pixels).
/// Used by one kernel call on one thread, then freed.
final class CoverageCanvas {
    let rect: Rect
    private let canvas: OpaquePointer?

    init(_ rect: Rect) {
        self.rect = rect
        canvas = dr_canvas_create(Int32(clamping: rect.x), Int32(clamping: rect.y), Int32(clamping: rect.width), Int32(clamping: rect.height))
    }

    deinit { dr_canvas_destroy(canvas) }

    /// Rasterises the coverage of `path` over `area` (inside `rect`) and calls `body` with each
    /// row's coverage bytes: `body(y, bytes)`, bytes[i] for pixel (area.x + i, y). Nothing when
    /// cairo could not allocate the canvas.
    func withCoverage(of path: Path, rule: FillRule, stroke: StrokeStyle?, over area: Rect,
                      _ body: (Int, UnsafePointer<UInt8>) -> Void) {
        guard let canvas, !area.isEmpty else { return }
        let elements = path.cElements
        var message = [CChar](repeating: 0, count: 128)
        let ruleCode = Int32(rule == .even_odd ? DR_FILL_EVEN_ODD.rawValue : DR_FILL_NONZERO.rawValue)
        let status = elements.withUnsafeBufferPointer { e in
            message.withUnsafeMutableBufferPointer { m in
                func call(_ s: UnsafePointer<dr_stroke_style>?) -> Int32 {
                    dr_canvas_coverage(canvas, e.baseAddress, Int32(e.count), ruleCode, s, Int32(area.x), Int32(area.y),
                                       Int32(area.width), Int32(area.height), m.baseAddress, m.count)
                }
                return stroke.map { $0.withC { call($0) } } ?? call(nil)
            }
        }
        guard status == 0, let data = dr_canvas_data(canvas) else { return }
        let stride = Int(dr_canvas_stride(canvas))
        for y in area.y..<area.maxY { body(y, data + ((y - rect.y) * stride + (area.x - rect.x))) }
    }
}
