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
    /// `radii` (top-left, top-right, bottom-right, bottom-left; % of the shorter side) round the corners.
    case rect(x: Length, y: Length, width: Length, height: Length, radii: [Length])
    case ellipse(center: LengthPoint, radii: LengthPoint)
    /// Flat [x1, y1, x2, y2, …] (x in % of the width, y of the height), closed or open.
    case polygon([Length])
    case polyline([Length])
    case line(from: LengthPoint, to: LengthPoint)
    /// Angles in radians, clockwise on screen (y down).
    case arc(center: LengthPoint, radius: Length, start: Double, end: Double)
    case path(Path)

    public func path(in size: Size) -> Path {
        switch self {
        case .rect(let x, let y, let w, let h, let radii):
            let (px, py) = (x.pixels(of: size.width), y.pixels(of: size.height))
            let (pw, ph) = (w.pixels(of: size.width), h.pixels(of: size.height))
            let r = radii.map { $0.pixels(of: size.shorterSide) }
            return r.allSatisfy { $0 == 0 } ? .rect(x: px, y: py, width: pw, height: ph)
                : .roundedRect(x: px, y: py, width: pw, height: ph, radii: r)
        case .ellipse(let center, let radii):
            let (cx, cy) = center.resolved(in: size), (rx, ry) = radii.resolved(in: size)
            return .ellipse(cx: cx, cy: cy, rx: rx, ry: ry)
        case .polygon(let v), .polyline(let v):
            let points = stride(from: 0, to: v.count - 1, by: 2).map { (v[$0].pixels(of: size.width), v[$0 + 1].pixels(of: size.height)) }
            if case .polygon = self { return .polyline(points, closed: true) }
            return .polyline(points, closed: false)
        case .line(let a, let b):
            let (x0, y0) = a.resolved(in: size), (x1, y1) = b.resolved(in: size)
            return Path([.move(x0, y0), .line(x1, y1)])
        case .arc(let center, let radius, let start, let end):
            let (cx, cy) = center.resolved(in: size)
            return .arc(cx: cx, cy: cy, radius: radius.pixels(of: size.shorterSide), start: start, end: end)
        case .path(let p):
            return p
        }
    }
}

extension Size {
    /// What a length along no axis (a radius, a line width, a dash) is a percentage of.
    var shorterSide: Int { min(width, height) }
}
