import CDarkroomDraw
import DarkroomCore
import Foundation

/// A path in image pixel coordinates (y down; pixel (i, j) covers [i, i+1) × [j, j+1)): moves,
/// lines, cubic Béziers and closes, the elements cairo (and Quartz, and SVG) paths are made of.
/// Shapes (rectangles, ellipses, arcs) are built from these, so every shape reaches cairo the same way.
public struct Path: Sendable, Hashable {
    public enum Element: Sendable, Hashable {
        case move(Double, Double)
        case line(Double, Double)
        /// Control points, then the end point.
        case curve(Double, Double, Double, Double, Double, Double)
        case close
    }

    public var elements: [Element] = []

    public init(_ elements: [Element] = []) { self.elements = elements }

    /// The magic number of a quarter circle as one cubic: control points at k·r.
    static let kappa = 4 * (2.0.squareRoot() - 1) / 3

    public static func rect(x: Double, y: Double, width: Double, height: Double) -> Path {
        Path([.move(x, y), .line(x + width, y), .line(x + width, y + height), .line(x, y + height), .close])
    }

    /// A rectangle with circular corners of four radii (top-left, top-right,
    /// bottom-right, bottom-left), each cut to half the shorter side, as CSS and Quartz do.
    public static func roundedRect(x: Double, y: Double, width: Double, height: Double, radii: [Double]) -> Path {
        let limit = min(abs(width), abs(height)) / 2
        let r = (radii.count == 4 ? radii : Array(repeating: radii.first ?? 0, count: 4)).map { min(max($0, 0), limit) }
        let k = 1 - kappa, x1 = x + width, y1 = y + height
        return Path([
            .move(x + r[0], y),
            .line(x1 - r[1], y), .curve(x1 - r[1] * k, y, x1, y + r[1] * k, x1, y + r[1]),
            .line(x1, y1 - r[2]), .curve(x1, y1 - r[2] * k, x1 - r[2] * k, y1, x1 - r[2], y1),
            .line(x + r[3], y1), .curve(x + r[3] * k, y1, x, y1 - r[3] * k, x, y1 - r[3]),
            .line(x, y + r[0]), .curve(x, y + r[0] * k, x + r[0] * k, y, x + r[0], y),
            .close,
        ])
    }

    /// An ellipse as four cubics, starting at its rightmost point and turning clockwise on screen.
    public static func ellipse(cx: Double, cy: Double, rx: Double, ry: Double) -> Path {
        let kx = rx * kappa, ky = ry * kappa
        return Path([
            .move(cx + rx, cy),
            .curve(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            .curve(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            .curve(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            .curve(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
            .close,
        ])
    }

    /// Points joined by lines; closed for a polygon.
    public static func polyline(_ points: [(Double, Double)], closed: Bool) -> Path {
        guard let first = points.first else { return Path() }
        return Path([.move(first.0, first.1)] + points.dropFirst().map { .line($0.0, $0.1) } + (closed ? [.close] : []))
    }

    /// A circular arc about (cx, cy) from angle `start` to `end` (radians, clockwise on screen as
    /// y points down, like cairo_arc), as cubics of at most a quarter turn each.
    public static func arc(cx: Double, cy: Double, radius: Double, start: Double, end: Double) -> Path {
        var path = Path([.move(cx + radius * cos(start), cy + radius * sin(start))])
        path.appendArc(cx: cx, cy: cy, rx: radius, ry: radius, rotation: 0, start: start, sweep: end - start)
        return path
    }

    /// Appends an elliptical arc (centre form) as cubics of at most a quarter turn, from the
    /// point at `start` (which must be the current point) through `sweep` radians.
    mutating func appendArc(cx: Double, cy: Double, rx: Double, ry: Double, rotation: Double, start: Double, sweep: Double) {
        let pieces = max(1, Int((abs(sweep) / (.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let t = 4 / 3 * tan(step / 4)
        let cr = cos(rotation), sr = sin(rotation)
        func map(_ x: Double, _ y: Double) -> (Double, Double) { (cx + x * cr - y * sr, cy + x * sr + y * cr) }
        var a = start
        for _ in 0..<pieces {
            let b = a + step
            let (c1x, c1y) = map(rx * (cos(a) - t * sin(a)), ry * (sin(a) + t * cos(a)))
            let (c2x, c2y) = map(rx * (cos(b) + t * sin(b)), ry * (sin(b) - t * cos(b)))
            let (ex, ey) = map(rx * cos(b), ry * sin(b))
            elements.append(.curve(c1x, c1y, c2x, c2y, ex, ey))
            a = b
        }
    }

    /// The elements as cairo's shim takes them.
    var cElements: [dr_path_element] {
        elements.map { e in
            var c = dr_path_element()
            switch e {
            case .move(let x, let y): c.op = Int32(DR_PATH_MOVE.rawValue); c.x.0 = x; c.y.0 = y
            case .line(let x, let y): c.op = Int32(DR_PATH_LINE.rawValue); c.x.0 = x; c.y.0 = y
            case .curve(let x1, let y1, let x2, let y2, let x3, let y3):
                c.op = Int32(DR_PATH_CURVE.rawValue); c.x = (x1, x2, x3); c.y = (y1, y2, y3)
            case .close: c.op = Int32(DR_PATH_CLOSE.rawValue)
            }
            return c
        }
    }

    /// The path with every coordinate times `factor`: the same shape over pixels 1/factor as
    /// wide (a feathered clip's coverage of cells).
    func scaled(by factor: Double) -> Path {
        Path(elements.map { e in
            switch e {
            case .move(let x, let y): .move(x * factor, y * factor)
            case .line(let x, let y): .line(x * factor, y * factor)
            case .curve(let a, let b, let c, let d, let e, let f): .curve(a * factor, b * factor, c * factor, d * factor, e * factor, f * factor)
            case .close: .close
            }
        })
    }

    /// Whether every coordinate is a finite number (a path cairo can take).
    var isFinite: Bool {
        elements.allSatisfy { e in
            switch e {
            case .move(let x, let y), .line(let x, let y): x.isFinite && y.isFinite
            case .curve(let a, let b, let c, let d, let e, let f): [a, b, c, d, e, f].allSatisfy(\.isFinite)
            case .close: true
            }
        }
    }
}
