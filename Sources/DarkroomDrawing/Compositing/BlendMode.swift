import CCairo
import DarkroomCore

/// How a layer (the *source*: a colour, an image, a gradient, a shape, text) is composited onto
/// the image under it (the *backdrop*): the W3C Compositing and Blending Level 1 blend modes and
/// the Porter-Duff operators, by the names users write in a config (`blend: multiply`).
///
/// One vocabulary for every filter that has a `blend` key: ``composite(_:onto:)`` is the spec's
/// formula on premultiplied float pixels (what darkroom's own compositing runs), and
/// ``cairoOperator`` is the same operation in cairo (what shapes drawn with cairo use). Both
/// follow the spec, so a layer composited either way gives the same pixels up to cairo's 8 bits.
public enum BlendMode: String, CaseIterable, Sendable {
    // W3C blend modes, composited with source-over (spec §9.1.4: "blending then source-over").
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color_dodge", colorBurn = "color_burn", hardLight = "hard_light", softLight = "soft_light"
    case difference, exclusion, hue, saturation, color, luminosity
    // Porter-Duff operators (spec §9.1).
    case clear, source
    case sourceOver = "source_over", sourceIn = "source_in", sourceOut = "source_out", sourceAtop = "source_atop"
    case destinationOver = "destination_over", destinationIn = "destination_in"
    case destinationOut = "destination_out", destinationAtop = "destination_atop"
    case xor, plus

    /// The names a config accepts, in the order `darkroom filters` lists them.
    public static let names: [String] = allCases.map(\.rawValue)

    /// The same operation in cairo (pixman implements the spec's formulas).
    public var cairoOperator: cairo_operator_t {
        switch self {
        case .normal, .sourceOver: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .source: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        case .plus: CAIRO_OPERATOR_ADD
        }
    }

    /// Whether a transparent source leaves the backdrop as it is (cairo's "bounded" operators):
    /// then only the pixels a layer covers need compositing. `source_in`, say, clears every
    /// pixel the layer does not cover.
    public var isBounded: Bool {
        switch self {
        case .clear, .source, .sourceIn, .sourceOut, .destinationIn, .destinationAtop: false
        default: true
        }
    }

    /// Whether an opaque backdrop stays opaque whatever the source (the encoders then drop alpha).
    public var keepsOpaqueBackdropOpaque: Bool {
        switch self {
        case .clear, .source, .sourceIn, .sourceOut, .destinationIn, .destinationOut, .destinationAtop, .xor: false
        default: true
        }
    }

    /// The W3C blend function B(Cb, Cs) of a separable mode, on straight colour; nil for the
    /// non-separable modes and the Porter-Duff operators.
    private var separable: ((Float, Float) -> Float)? {
        switch self {
        case .normal: { _, s in s }
        case .multiply: { b, s in b * s }
        case .screen: { b, s in b + s - b * s }
        case .overlay: { b, s in Self.hardLight(backdrop: s, source: b) }
        case .darken: { b, s in Swift.min(b, s) }
        case .lighten: { b, s in Swift.max(b, s) }
        case .colorDodge: { b, s in b == 0 ? 0 : s >= 1 ? 1 : Swift.min(1, b / (1 - s)) }
        case .colorBurn: { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - Swift.min(1, (1 - b) / s) }
        case .hardLight: { b, s in Self.hardLight(backdrop: b, source: s) }
        case .softLight: { b, s in
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        }
        case .difference: { b, s in abs(b - s) }
        case .exclusion: { b, s in b + s - 2 * b * s }
        default: nil
        }
    }

    private static func hardLight(backdrop b: Float, source s: Float) -> Float {
        s <= 0.5 ? b * 2 * s : { let t = 2 * s - 1; return b + t - b * t }()
    }

    /// The Porter-Duff fractions (Fa, Fb) of source and backdrop, for the operators.
    private func porterDuff(_ alphaSource: Float, _ alphaBackdrop: Float) -> (Float, Float)? {
        let (sa, ba) = (alphaSource, alphaBackdrop)
        switch self {
        case .clear: return (0, 0)
        case .source: return (1, 0)
        case .sourceOver: return (1, 1 - sa)
        case .sourceIn: return (ba, 0)
        case .sourceOut: return (1 - ba, 0)
        case .sourceAtop: return (ba, 1 - sa)
        case .destinationOver: return (1 - ba, 1)
        case .destinationIn: return (0, sa)
        case .destinationOut: return (0, 1 - sa)
        case .destinationAtop: return (1 - ba, sa)
        case .xor: return (1 - ba, 1 - sa)
        case .plus: return (1, 1)
        default: return nil
        }
    }

    /// `source` composited onto `backdrop`, both premultiplied RGBA: the spec's formulas.
    ///
    /// Blend modes: `co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)`, `αo = αs + αb·(1 − αs)`,
    /// with `Cb`, `Cs` the straight colours. Porter-Duff: `co = cs·Fa + cb·Fb`, `αo = αs·Fa + αb·Fb`
    /// (`plus` clamped to 1).
    @inlinable public func composite(_ source: Pixel, onto backdrop: Pixel) -> Pixel {
        compositeFormula(source, backdrop)
    }

    @usableFromInline func compositeFormula(_ s: Pixel, _ b: Pixel) -> Pixel {
        let sa = s[3], ba = b[3]
        if let (fa, fb) = porterDuff(sa, ba) {
            let out = s * fa + b * fb
            return self == .plus ? out.clamped(lowerBound: .zero, upperBound: Pixel(repeating: 1)) : out
        }
        let alpha = sa + ba * (1 - sa)
        let cs = s.unpremultiplied, cb = b.unpremultiplied
        let mixed: SIMD3<Float>
        if let f = separable {
            mixed = SIMD3(f(cb[0], cs[0]), f(cb[1], cs[1]), f(cb[2], cs[2]))
        } else {
            mixed = Self.nonSeparable(self, backdrop: SIMD3(cb[0], cb[1], cb[2]), source: SIMD3(cs[0], cs[1], cs[2]))
        }
        let k = sa * ba
        var out = s * (1 - ba) + b * (1 - sa)
        out[0] += k * mixed[0]
        out[1] += k * mixed[1]
        out[2] += k * mixed[2]
        out[3] = alpha
        return out
    }

    /// Composites `count` source pixels onto the backdrop row in place.
    public func composite(_ source: UnsafePointer<Pixel>, onto backdrop: UnsafeMutablePointer<Pixel>, count: Int) {
        switch self {
        case .normal, .sourceOver:
            // The common case (watermarks, text) without the general formula's branches.
            for i in 0..<count {
                let s = source[i]
                backdrop[i] = s + backdrop[i] * (1 - s[3])
            }
        default:
            for i in 0..<count { backdrop[i] = compositeFormula(source[i], backdrop[i]) }
        }
    }

    // MARK: Non-separable modes (spec §10.2): Lum, ClipColor, SetLum, Sat, SetSat.

    private static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }

    private static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c), n = c.min(), x = c.max()
        var c = c
        if n < 0 { c = SIMD3(repeating: l) + (c - SIMD3(repeating: l)) * l / (l - n) }
        if x > 1 { c = SIMD3(repeating: l) + (c - SIMD3(repeating: l)) * (1 - l) / (x - l) }
        return c
    }

    private static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + SIMD3(repeating: l - lum(c)))
    }

    private static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    /// SetSat: the largest channel becomes `s`, the smallest 0, the middle one in proportion.
    private static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let hi = c.max(), lo = c.min()
        guard hi > lo else { return .zero }
        return (c - SIMD3(repeating: lo)) * (s / (hi - lo))
    }

    private static func nonSeparable(_ mode: BlendMode, backdrop b: SIMD3<Float>, source s: SIMD3<Float>) -> SIMD3<Float> {
        switch mode {
        case .hue: setLum(setSat(s, sat(b)), lum(b))
        case .saturation: setLum(setSat(b, sat(s)), lum(b))
        case .color: setLum(s, lum(b))
        default: setLum(b, lum(s))  // luminosity
        }
    }
}

extension ParameterDescriptor {
    /// The `blend` parameter every compositing filter shares: one of ``BlendMode/names``,
    /// `normal` (source-over) by default.
    public static func blendMode(_ description: String = "How the layer combines with the image under it: a W3C blend mode or a Porter-Duff operator.")
        -> ParameterDescriptor {
        ParameterDescriptor("blend", .choice(BlendMode.names), description, default: .choice(BlendMode.normal.rawValue))
    }
}

extension DescribedParameters {
    /// The ``BlendMode`` a `blend` parameter names.
    public func blendMode(_ name: String = "blend") -> BlendMode { choice(name, as: BlendMode.self) }
}
