import CDarkroomCodecs
import DarkroomCore

/// Converts rows between the codecs' interleaved integer samples and the core's premultiplied
/// float pixels. Scalar code on purpose: the generic SIMD integer↔float conversions are not
/// specialised well and cost about ten times more on these hot paths.
enum PixelConversion {
    /// 0…255 → 0…1, exactly as division would give (so opaque stays exactly 1).
    private static let unitOf8Bit: [Float] = (0...255).map { Float($0) / 255 }

    /// Straight samples (`channels` 3 or 4, 8- or 16-bit) to premultiplied float pixels.
    static func pixels(from samples: UnsafeRawPointer, channels: Int, bytesPerSample: Int,
                       count: Int, into out: UnsafeMutablePointer<Pixel>) {
        if bytesPerSample == 1 {
            let s = samples.assumingMemoryBound(to: UInt8.self)
            unitOf8Bit.withUnsafeBufferPointer { t in
                if channels == 3 {
                    // In C: see dr_expand_rgb8.
                    out.withMemoryRebound(to: Float.self, capacity: 4 * count) { dr_expand_rgb8(s, count, $0) }
                } else {
                    for i in 0..<count {
                        let a = t[Int(s[4 * i + 3])]
                        out[i] = Pixel(t[Int(s[4 * i])] * a, t[Int(s[4 * i + 1])] * a, t[Int(s[4 * i + 2])] * a, a)
                    }
                }
            }
        } else {
            let s = samples.assumingMemoryBound(to: UInt16.self)
            let scale: Float = 1 / 65535
            for i in 0..<count {
                let at = s + channels * i
                // Division keeps full alpha exactly 1, so opaque images test as opaque.
                let a = channels == 4 ? Float(at[3]) / 65535 : 1
                let k = a * scale
                out[i] = Pixel(Float(at[0]) * k, Float(at[1]) * k, Float(at[2]) * k, a)
            }
        }
    }

    /// How a strip is quantised to bytes: which channels, how many bits, flattened or not.
    struct Layout: Sendable, Equatable {
        /// One colour channel (the mean of R, G and B, which a grey image has equal).
        var grey: Bool
        /// Straight alpha kept as the last channel.
        var alpha: Bool
        /// Composited over white first (JPEG has no alpha); implies no alpha channel.
        var overWhite: Bool = false
        /// 16-bit samples in host byte order.
        var sixteenBit: Bool = false

        var channels: Int { (grey ? 1 : 3) + (alpha ? 1 : 0) }
        var bytesPerPixel: Int { channels * (sixteenBit ? 2 : 1) }

        static let rgb = Layout(grey: false, alpha: false)
        static let rgba = Layout(grey: false, alpha: true)
        static let rgbOverWhite = Layout(grey: false, alpha: false, overWhite: true)
    }

    /// Quantises `count` pixels once: unpremultiply (or flatten), clamp to 0…1, round to nearest.
    static func bytes(from pixels: UnsafePointer<Pixel>, count: Int, layout: Layout, into out: UnsafeMutableRawPointer) {
        if layout == .rgb || layout == .rgbOverWhite {
            // In C (SSE2): see dr_quantise_rgb.
            pixels.withMemoryRebound(to: Float.self, capacity: 4 * count) { floats in
                dr_quantise_rgb(floats, count, layout.overWhite ? 1 : 0, out.assumingMemoryBound(to: UInt8.self))
            }
        } else if layout.grey && !layout.alpha && !layout.sixteenBit {
            // In C, like dr_quantise_rgb: grey photographs are common outputs.
            pixels.withMemoryRebound(to: Float.self, capacity: 4 * count) { floats in
                dr_quantise_grey(floats, count, layout.overWhite ? 1 : 0, out.assumingMemoryBound(to: UInt8.self))
            }
        } else if layout == .rgba {
            let out = out.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let p = pixels[i], a = unit(p[3])
                guard a > 0 else { (out + 4 * i).update(repeating: 0, count: 4); continue }
                let inverse = 1 / p[3]
                out[4 * i] = byte(p[0] * inverse); out[4 * i + 1] = byte(p[1] * inverse)
                out[4 * i + 2] = byte(p[2] * inverse); out[4 * i + 3] = byte(a)
            }
        } else if layout.sixteenBit {
            // The strip's bytes are seen as 16-bit samples only while they are written.
            out.withMemoryRebound(to: UInt16.self, capacity: count * layout.channels) {
                samples(from: pixels, count: count, layout: layout, into: $0, scale: 65535)
            }
        } else {
            samples(from: pixels, count: count, layout: layout, into: out.assumingMemoryBound(to: UInt8.self), scale: 255)
        }
    }

    /// The general case: grey or colour, with or without alpha, 8 or 16 bits.
    private static func samples<Sample: FixedWidthInteger>(
        from pixels: UnsafePointer<Pixel>, count: Int, layout: Layout, into out: UnsafeMutablePointer<Sample>, scale: Float
    ) {
        let channels = layout.channels
        @inline(__always) func sample(_ v: Float) -> Sample { Sample(truncatingIfNeeded: Int32(unit(v) * scale + 0.5)) }
        for i in 0..<count {
            var p = pixels[i]
            let a = unit(p[3])
            if layout.overWhite {
                p += Pixel(repeating: 1 - a)
            } else if a > 0 {
                p /= p[3]
            } else {
                p = .zero
            }
            let o = out + channels * i
            if layout.grey {
                o[0] = sample((p[0] + p[1] + p[2]) / 3)
            } else {
                o[0] = sample(p[0]); o[1] = sample(p[1]); o[2] = sample(p[2])
            }
            if layout.alpha { o[channels - 1] = sample(a) }
        }
    }

    /// Clamps to 0…1; NaN fails both comparisons and becomes 0.
    @inline(__always) private static func unit(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }

    /// Clamps, then rounds to nearest (ties away from zero).
    @inline(__always) private static func byte(_ v: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int32(unit(v) * 255 + 0.5)) }
}
