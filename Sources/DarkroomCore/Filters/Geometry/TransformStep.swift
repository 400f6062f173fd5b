import Foundation

/// One operation of a `transform`, in the order the user wrote it.
enum TransformStep: Hashable, Sendable {
    /// Radians; with y pointing down a positive angle turns clockwise on screen, a negative one
    /// counter-clockwise (as Core Graphics in UIKit's flipped context).
    case rotate(Double)
    case scale(Double, Double)
    /// Lengths; % refers to the input's width (x) and height (y).
    case translate(Length, Length)
    /// x' = x + shx·y, y' = y + shy·x.
    case shear(Double, Double)
    case matrix(AffineTransform)

    /// The step as an affine map for an input of `size` (only `translate` depends on it).
    func affine(for size: Size) -> AffineTransform {
        switch self {
        case .rotate(let angle):
            // Snap cos/sin of right angles to exact 0 and ±1 so that 90° turns move whole pixels.
            let r = AffineTransform.rotation(angle)
            return AffineTransform(a: snapped(r.a), b: snapped(r.b), c: snapped(r.c), d: snapped(r.d), tx: 0, ty: 0)
        case .scale(let sx, let sy): return .scale(sx, sy)
        case .translate(let x, let y): return .translation(x.pixels(of: size.width), y.pixels(of: size.height))
        case .shear(let shx, let shy): return .shear(shx, shy)
        case .matrix(let m): return m
        }
    }

    /// Reads the step named `name` from a parameter value; nil for parameters that are not steps.
    static func parse(_ name: String, _ value: ParameterValue) throws(ParameterError) -> TransformStep? {
        switch (name, value) {
        case ("rotate", .number(let angle)):
            return .rotate(angle)
        case ("scale", .numbers(let v)):
            guard v.count == 1 || v.count == 2 else { throw ParameterError("scale: give one number or [sx, sy], got \(v.count) numbers") }
            return .scale(v[0], v.count == 2 ? v[1] : v[0])
        case ("translate", .point(let x, let y)):
            return .translate(x, y)
        case ("shear", .numbers(let v)):
            guard v.count == 1 || v.count == 2 else { throw ParameterError("shear: give one number or [shx, shy], got \(v.count) numbers") }
            return .shear(v[0], v.count == 2 ? v[1] : 0)
        case ("matrix", .numbers(let v)):
            guard v.count == 6 else { throw ParameterError("matrix: give six numbers [a, b, c, d, tx, ty], got \(v.count)") }
            return .matrix(AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        default:
            return nil
        }
    }
}

private func snapped(_ v: Double) -> Double {
    abs(v - v.rounded()) < 1e-12 ? v.rounded() : v
}
