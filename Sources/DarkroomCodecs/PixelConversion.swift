import DarkroomCore

/// Converts between the codecs' interleaved integer RGBA and the core's premultiplied float `Image`.
enum PixelConversion {
    /// Straight RGBA samples (8- or 16-bit, host order) to a premultiplied float image.
    static func image<Sample: FixedWidthInteger & UnsignedInteger>(
        from samples: UnsafePointer<Sample>, width: Int, height: Int
    ) -> Image {
        let maxValue = Float(Sample.max)
        let scale = 1 / maxValue
        let source = UncheckedSendable(samples)
        return Image(width: width, height: height) { buffer in
            let target = UncheckedSendable(buffer.baseAddress)
            RowBands.forEach(width: width, height: height) { rows in
                guard let out = target.value else { return }
                let input = source.value
                for i in rows.lowerBound * width..<rows.upperBound * width {
                    // Scalar arithmetic: generic SIMD integer→float conversion is far slower here.
                    let at = input + 4 * i
                    // Division keeps full alpha exactly 1, so opaque images test as opaque.
                    let a = Float(at[3]) / maxValue
                    let premultiply = a * scale
                    (out + i).initialize(to: Pixel(Float(at[0]) * premultiply, Float(at[1]) * premultiply,
                                                   Float(at[2]) * premultiply, a))
                }
            }
        }
    }

    /// How `rgba8(from:)` treats transparency.
    enum AlphaHandling {
        /// Unpremultiply and keep alpha (PNG).
        case keep
        /// Composite over white and write alpha 255 (JPEG has no alpha channel).
        case flattenOnWhite
    }

    /// Quantises an image to straight 8-bit RGBA once: clamp to 0…1, round to nearest.
    static func rgba8(from image: Image, alpha: AlphaHandling) -> [UInt8] {
        let width = image.width, height = image.height
        let count = width * height
        return image.pixels.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
                let source = UncheckedSendable(pixels.baseAddress)
                let target = UncheckedSendable(UnsafeMutableRawPointer(buffer.baseAddress))
                RowBands.forEach(width: width, height: height) { rows in
                    guard let input = source.value, let out = target.value else { return }
                    for i in rows.lowerBound * width..<rows.upperBound * width {
                        out.storeBytes(of: quantise(input[i], alpha: alpha), toByteOffset: 4 * i, as: SIMD4<UInt8>.self)
                    }
                }
                initialized = count * 4
            }
        }
    }

    /// Whether every alpha byte of straight RGBA is 255, so PNG can drop the channel losslessly.
    static func isOpaque(_ rgba: [UInt8]) -> Bool {
        rgba.withUnsafeBufferPointer { bytes in
            var i = 3
            while i < bytes.count {
                if bytes[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// Scalar code on purpose: the generic SIMD conversions (clamp, rounding, Float→Int vectors)
    /// are not specialised well and cost about ten times more on this hot path.
    @inline(__always)
    private static func quantise(_ p: Pixel, alpha: AlphaHandling) -> SIMD4<UInt8> {
        let a = unit(p[3])
        switch alpha {
        case .keep:
            guard a > 0 else { return .zero }
            let inverse = 1 / p[3]
            return SIMD4(byte(p[0] * inverse), byte(p[1] * inverse), byte(p[2] * inverse), byte(a))
        case .flattenOnWhite:
            // Premultiplied "over" a white background: c + (1 − a)·1.
            let white = 1 - a
            return SIMD4(byte(p[0] + white), byte(p[1] + white), byte(p[2] + white), 255)
        }
    }

    /// Clamps to 0…1; NaN fails both comparisons and becomes 0.
    @inline(__always)
    private static func unit(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }

    /// Clamps, then rounds to nearest (ties away from zero).
    @inline(__always)
    private static func byte(_ v: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int32(unit(v) * 255 + 0.5)) }
}
