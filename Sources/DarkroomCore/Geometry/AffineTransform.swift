import Foundation

/// A 2-D affine map `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Core Graphics' layout).
struct AffineTransform: Hashable, Sendable {
    var a, b, c, d, tx, ty: Double

    init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Rotation by `angle` radians. With y pointing down, a positive angle turns clockwise on screen.
    static func rotation(_ angle: Double) -> AffineTransform {
        let cs = cos(angle), sn = sin(angle)
        return AffineTransform(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }

    static func shear(_ shx: Double, _ shy: Double) -> AffineTransform {
        AffineTransform(a: 1, b: shy, c: shx, d: 1, tx: 0, ty: 0)
    }

    /// `self` followed by `next`.
    func then(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * next.a + b * next.c, b: a * next.b + b * next.d,
            c: c * next.a + d * next.c, d: c * next.b + d * next.d,
            tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    var determinant: Double { a * d - b * c }
    var isIdentity: Bool { self == .identity }
    /// False when a coefficient overflowed to infinity or NaN (huge factors multiplied together).
    var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// The inverse map, or nil when the transform collapses the plane.
    var inverted: AffineTransform? {
        let det = determinant
        guard abs(det) > 1e-12 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id,
                               tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    /// Bounding box of the image of a rectangle, rounded outwards to whole pixels.
    func boundingBox(of r: Rect) -> Rect {
        let corners = [apply(Double(r.x), Double(r.y)), apply(Double(r.maxX), Double(r.y)),
                       apply(Double(r.x), Double(r.maxY)), apply(Double(r.maxX), Double(r.maxY))]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        // Tolerate floating error so that exact multiples do not gain a pixel.
        // Saturating: a map built from huge parameters must give a huge box, not a trap.
        let x0 = Int(saturating: (xs.min()! + 1e-9).rounded(.down)), y0 = Int(saturating: (ys.min()! + 1e-9).rounded(.down))
        let x1 = Int(saturating: (xs.max()! - 1e-9).rounded(.up)), y1 = Int(saturating: (ys.max()! - 1e-9).rounded(.up))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
