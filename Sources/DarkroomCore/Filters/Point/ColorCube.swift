/// A 3-D colour lookup table (CIColorCube, a `.cube` file's LUT_3D): `size`³ output colours on a
/// regular grid over the input domain, red varying fastest, then green, then blue; colours between
/// grid points are interpolated. Inputs outside the domain are clamped to it (the `.cube`
/// specification's rule), so the table is the last word on every colour it sees.
///
/// The entries carry an alpha that multiplies the pixel's (CIColorCube's RGBA data); tables read
/// from `.cube` files have alpha 1 everywhere and keep opacity.
struct ColorCube: PointOperation {
    /// How a colour between grid points is computed from the cell's corners.
    enum Interpolation: String, Sendable, CaseIterable {
        /// Each output mixes the cell's 8 corners by volume (CIColorCube, ImageMagick -hald-clut).
        case trilinear
        /// Each output mixes the 4 corners of the tetrahedron the colour lies in (DaVinci Resolve,
        /// OpenColorIO): fewer reads, and exact for any table that is linear along the grey axis.
        case tetrahedral
    }

    let size: Int
    /// `size`³ entries, red fastest; alpha in the fourth lane.
    let entries: [Pixel]
    let domainMin: SIMD3<Float>
    let domainMax: SIMD3<Float>
    let interpolation: Interpolation

    init(size: Int, entries: [Pixel], domainMin: SIMD3<Float> = .zero, domainMax: SIMD3<Float> = .one,
                interpolation: Interpolation = .trilinear) {
        precondition(size >= 2 && entries.count == size * size * size)
        self.size = size
        self.entries = entries
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.interpolation = interpolation
        preservesOpacity = entries.allSatisfy { $0[3] == 1 }
        let sameDomain = domainMin.x == domainMin.y && domainMin.y == domainMin.z
            && domainMax.x == domainMax.y && domainMax.y == domainMax.z
        preservesGrey = sameDomain && Self.keepsGrey(size: size, entries: entries, interpolation: interpolation)
    }

    let preservesOpacity: Bool
    /// True when the domain is the same on all three channels and every entry a grey input can
    /// reach is grey: tetrahedral interpolation of a grey reads the grey diagonal alone (the
    /// other two corners' weights are exactly 0); trilinear reads the whole cells along it.
    let preservesGrey: Bool

    private static func keepsGrey(size: Int, entries: [Pixel], interpolation: Interpolation) -> Bool {
        let reach = interpolation == .tetrahedral ? 0 : 1
        for b in 0..<size { for g in max(0, b - reach)...min(size - 1, b + reach) {
            for r in max(0, b - reach, g - reach)...min(size - 1, b + reach, g + reach) {
                let e = entries[r + size * (g + size * b)]
                if e[0] != e[1] || e[1] != e[2] { return false }
            }
        } }
        return true
    }

    func apply(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        let n = size, last = Float(size - 1)
        let scale = last / (domainMax - domainMin), lo = domainMin
        let tetrahedral = interpolation == .tetrahedral
        entries.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            let strideG = n, strideB = n * n
            for i in 0..<count {
                let p = pixels[i]
                var c = (SIMD3(p[0], p[1], p[2]) - lo) * scale
                c = c.replacing(with: 0, where: .!(c .> 0))  // NaN and below the domain to 0
                c = c.replacing(with: last, where: c .> last)
                let base = SIMD3<Int>(Int(c.x), Int(c.y), Int(c.z))
                let f = c - SIMD3<Float>(Float(base.x), Float(base.y), Float(base.z))
                let step = SIMD3<Int>(base.x < n - 1 ? 1 : 0, base.y < n - 1 ? strideG : 0, base.z < n - 1 ? strideB : 0)
                let o = base.x + base.y * strideG + base.z * strideB
                var q = tetrahedral ? Self.tetrahedral(t, o, step, f) : Self.trilinear(t, o, step, f)
                q[3] *= p[3]
                pixels[i] = q
            }
        }
    }

    @inline(__always)
    private static func trilinear(_ t: UnsafePointer<Pixel>, _ o: Int, _ s: SIMD3<Int>, _ f: SIMD3<Float>) -> Pixel {
        let c00 = t[o] + (t[o + s.x] - t[o]) * f.x
        let c10 = t[o + s.y] + (t[o + s.y + s.x] - t[o + s.y]) * f.x
        let c01 = t[o + s.z] + (t[o + s.z + s.x] - t[o + s.z]) * f.x
        let c11 = t[o + s.z + s.y] + (t[o + s.z + s.y + s.x] - t[o + s.z + s.y]) * f.x
        let c0 = c00 + (c10 - c00) * f.y, c1 = c01 + (c11 - c01) * f.y
        return c0 + (c1 - c0) * f.z
    }

    /// The cell split into six tetrahedra along its grey diagonal, by the order of the fractions.
    @inline(__always)
    private static func tetrahedral(_ t: UnsafePointer<Pixel>, _ o: Int, _ s: SIMD3<Int>, _ f: SIMD3<Float>) -> Pixel {
        let (fr, fg, fb) = (f.x, f.y, f.z)
        let c000 = t[o], c111 = t[o + s.x + s.y + s.z]
        if fr > fg {
            if fg > fb { return c000 * (1 - fr) + t[o + s.x] * (fr - fg) + t[o + s.x + s.y] * (fg - fb) + c111 * fb }
            if fr > fb { return c000 * (1 - fr) + t[o + s.x] * (fr - fb) + t[o + s.x + s.z] * (fb - fg) + c111 * fg }
            return c000 * (1 - fb) + t[o + s.z] * (fb - fr) + t[o + s.x + s.z] * (fr - fg) + c111 * fg
        }
        if fb > fg { return c000 * (1 - fb) + t[o + s.z] * (fb - fg) + t[o + s.y + s.z] * (fg - fr) + c111 * fr }
        if fb > fr { return c000 * (1 - fg) + t[o + s.y] * (fg - fb) + t[o + s.y + s.z] * (fb - fr) + c111 * fr }
        return c000 * (1 - fg) + t[o + s.y] * (fg - fr) + t[o + s.x + s.y] * (fr - fb) + c111 * fb
    }
}
