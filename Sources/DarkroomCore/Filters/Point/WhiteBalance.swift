import Foundation

/// The colour science behind `temperature_tint`: the white of a colour temperature and tint, and
/// the matrix (on linear sRGB) that adapts one white to another.
enum WhiteBalance {
    /// CIE xy of the black body at `kelvin` (clamped to 1667…25000 K), by the cubic fit of Kim et
    /// al. (2002) to the Planckian locus, then moved off the locus by `tint` along its normal in
    /// CIE 1960 uv, in Adobe's tint units (1 unit = 1/3000 uv; positive towards magenta, as in
    /// Camera Raw and Core Image).
    static func chromaticity(kelvin: Double, tint: Double) -> (x: Double, y: Double) {
        let t = min(max(kelvin, 1667), 25000)
        let (u, v) = uv(planckian(t))
        let (u1, v1) = uv(planckian(min(t + 1, 25000))), (u0, v0) = uv(planckian(max(t - 1, 1667)))
        // The normal pointing above the locus (towards green); magenta is below.
        var (nu, nv) = (-(v1 - v0), u1 - u0)
        let length = (nu * nu + nv * nv).squareRoot()
        (nu, nv) = (nu / length, nv / length)
        if nv < 0 { (nu, nv) = (-nu, -nv) }
        let offset = -tint / 3000
        let (tu, tv) = (u + offset * nu, v + offset * nv)
        let d = 2 * tu - 8 * tv + 4
        return (3 * tu / d, 2 * tv / d)
    }

    static func planckian(_ t: Double) -> (x: Double, y: Double) {
        let t2 = t * t, t3 = t2 * t
        let k: [Double] = t <= 4000 ? [-0.2661239e9, -0.2343589e6, 0.8776956e3, 0.179910]
            : [-3.0258469e9, 2.1070379e6, 0.2226347e3, 0.240390]
        let x: Double = k[0] / t3 + k[1] / t2 + k[2] / t + k[3]
        let c: [Double] = t <= 2222 ? [-1.1063814, -1.34811020, 2.18555832, -0.20219683]
            : t <= 4000 ? [-0.9549476, -1.37418593, 2.09137015, -0.16748867]
            : [3.0817580, -5.87338670, 3.75112997, -0.37001483]
        let y: Double = ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
        return (x, y)
    }

    static func uv(_ p: (x: Double, y: Double)) -> (Double, Double) {
        let d = -2 * p.x + 12 * p.y + 3
        return (4 * p.x / d, 6 * p.y / d)
    }

    /// Linear sRGB to CIE XYZ (D65), IEC 61966-2-1.
    static let rgbToXYZ: [Double] = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.0721750,
                                     0.0193339, 0.1191920, 0.9503041]
    /// XYZ to the Bradford cone space.
    static let bradford: [Double] = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296]

    /// The matrix on linear sRGB that takes the white `from` to the white `to` (Y kept): von
    /// Kries scaling in Bradford cone space, as ICC v4 and Core Image's white balance adapt.
    static func adaptation(from: (x: Double, y: Double), to: (x: Double, y: Double)) -> [Double] {
        func xyz(_ p: (x: Double, y: Double)) -> [Double] { [p.x / p.y, 1, (1 - p.x - p.y) / p.y] }
        let source = multiply(bradford, xyz(from)), target = multiply(bradford, xyz(to))
        let scale: [Double] = [target[0] / source[0], 0, 0, 0, target[1] / source[1], 0, 0, 0, target[2] / source[2]]
        let cone = product(inverse(bradford), product(scale, bradford))
        return product(inverse(rgbToXYZ), product(cone, rgbToXYZ))
    }

    static func multiply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { (i: Int) -> Double in
            let row: Double = m[3 * i] * v[0] + m[3 * i + 1] * v[1]
            return row + m[3 * i + 2] * v[2]
        }
    }

    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { (i: Int) -> Double in
            let (row, column) = (i / 3, i % 3)
            var sum = 0.0
            for k in 0..<3 { sum += a[3 * row + k] * b[3 * k + column] }
            return sum
        }
    }

    static func inverse(_ m: [Double]) -> [Double] {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let co: [Double] = [e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g, c * d - a * f,
                  d * h - e * g, b * g - a * h, a * e - b * d]
        let det = a * co[0] + b * co[3] + c * co[6]
        return co.map { $0 / det }
    }
}
