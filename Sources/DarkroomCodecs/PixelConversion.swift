import DarkroomCore

/// Converts between the codecs' interleaved integer RGBA and the core's premultiplied float `Image`.
enum PixelConversion {
    /// Straight RGBA samples (8- or 16-bit, host order) to a premultiplied float image.
    static func image<Sample: FixedWidthInteger & UnsignedInteger>(
        from samples: UnsafePointer<Sample>, width: Int, height: Int
    ) -> Image {
        let count = width * height
        let scale = 1 / Float(Sample.max)
        let source = UncheckedSendable(samples)
        let pixels = [Pixel](unsafeUninitializedCapacity: count) { buffer, initialized in
            let target = UncheckedSendable(buffer.baseAddress)
            RowBands.forEach(width: width, height: height) { rows in
                guard let out = target.value else { return }
                let input = source.value
                for i in rows.lowerBound * width..<rows.upperBound * width {
                    let at = input + 4 * i
                    let straight = Pixel(Float(at[0]), Float(at[1]), Float(at[2]), Float(at[3])) * scale
                    let a = straight[3]
                    (out + i).initialize(to: straight * Pixel(a, a, a, 1))
                }
            }
            initialized = count
        }
        return Image(width: width, height: height, pixels: pixels)
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

    @inline(__always)
    private static func quantise(_ p: Pixel, alpha: AlphaHandling) -> SIMD4<UInt8> {
        var straight: Pixel
        switch alpha {
        case .keep:
            straight = p.unpremultiplied
        case .flattenOnWhite:
            // Premultiplied "over" a white background: c + (1 − a)·1.
            let a = min(max(p[3], 0), 1)
            straight = p + Pixel(repeating: 1 - a)
            straight[3] = 1
        }
        let clamped = straight.clamped(lowerBound: .zero, upperBound: Pixel(repeating: 1))
        // NaN compares false in clamp and would survive; replacing it keeps the conversion defined.
        let safe = clamped.replacing(with: Float(0), where: clamped .!= clamped)
        let scaled = (safe * 255).rounded(.toNearestOrAwayFromZero)
        return SIMD4<UInt8>(truncatingIfNeeded: SIMD4<Int32>(scaled))
    }
}
