/// One pixel: red, green, blue, alpha as 32-bit floats, nominally 0…1.
///
/// Images hold **premultiplied** alpha so that resampling and blurring never pull colour out of
/// transparent pixels (no dark fringes). Point operations unpremultiply around their formula.
public typealias Pixel = SIMD4<Float>

extension SIMD4 where Scalar == Float {
    /// Straight (unpremultiplied) colour from a premultiplied pixel.
    @inlinable public var unpremultiplied: Pixel {
        let a = self[3]
        guard a > 0 else { return .zero }
        if a == 1 { return self }
        let inv = 1 / a
        return Pixel(self[0] * inv, self[1] * inv, self[2] * inv, a)
    }

    /// Whether red, green and blue are equal (premultiplying keeps that).
    @inlinable public var isGrey: Bool { self[0] == self[1] && self[1] == self[2] }

    /// Premultiplied pixel from straight colour.
    var premultiplied: Pixel {
        let a = self[3]
        return Pixel(self[0] * a, self[1] * a, self[2] * a, a)
    }
}
