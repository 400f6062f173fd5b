import DarkroomCore
import Foundation

/// A position whose coordinates are px or % of the image's width and height.
public struct LengthPoint: Sendable, Hashable {
    public var x, y: Length
    public init(_ x: Length, _ y: Length) { (self.x, self.y) = (x, y) }

    func resolved(in size: Size) -> (Double, Double) { (x.pixels(of: size.width), y.pixels(of: size.height)) }
}

/// The outline of a shape, with lengths that may be % of the image: resolved into a ``Path``
/// once the image's size is known.
public enum ShapeGeometry: Sendable, Hashable {
    /// `radii` (top-left, top-right, bottom-right, bottom-left, px) round the corners.
    case rect(x: Length, y: Length, width: Length, height: Length, radii: [Double])
    case ellipse(center: LengthPoint, radii: LengthPoint)
    /// Flat [x1, y1, x2, y2, …] in px, closed or open.
    case polygon([Double])
    case polyline([Double])
    case line(from: LengthPoint, to: LengthPoint)
    /// Angles in radians, clockwise on screen (y down).
    case arc(center: LengthPoint, radius: Length, start: Double, end: Double)
    case path(Path)

    public func path(in size: Size) -> Path {
        switch self {
        case .rect(let x, let y, let w, let h, let radii):
            let (px, py) = (x.pixels(of: size.width), y.pixels(of: size.height))
            let (pw, ph) = (w.pixels(of: size.width), h.pixels(of: size.height))
            return radii.allSatisfy { $0 == 0 } ? .rect(x: px, y: py, width: pw, height: ph)
                : .roundedRect(x: px, y: py, width: pw, height: ph, radii: radii)
        case .ellipse(let center, let radii):
            let (cx, cy) = center.resolved(in: size), (rx, ry) = radii.resolved(in: size)
            return .ellipse(cx: cx, cy: cy, rx: rx, ry: ry)
        case .polygon(let v), .polyline(let v):
            let points = stride(from: 0, to: v.count - 1, by: 2).map { (v[$0], v[$0 + 1]) }
            if case .polygon = self { return .polyline(points, closed: true) }
            return .polyline(points, closed: false)
        case .line(let a, let b):
            let (x0, y0) = a.resolved(in: size), (x1, y1) = b.resolved(in: size)
            return Path([.move(x0, y0), .line(x1, y1)])
        case .arc(let center, let radius, let start, let end):
            let (cx, cy) = center.resolved(in: size)
            return .arc(cx: cx, cy: cy, radius: radius.pixels(of: min(size.width, size.height)), start: start, end: end)
        case .path(let p):
            return p
        }
    }
}
