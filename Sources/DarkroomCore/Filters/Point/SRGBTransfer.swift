import Foundation

/// The sRGB transfer function (IEC 61966-2-1) as tone curves, so filters that Core Image defines
/// in linear light (exposure, white point, temperature and tint) can step into it and back in the
/// same fused pass. Extended to negative values by symmetry, as Core Image's extended sRGB is, so a
/// value a previous step pushed below 0 comes back unchanged.
extension ToneCurve {
    /// Encoded sRGB to linear light.
    static let srgbToLinear = ToneCurve("sRGB to linear") { v in
        let a = abs(v)
        let l = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }

    /// Linear light to encoded sRGB.
    static let linearToSRGB = ToneCurve("linear to sRGB") { v in
        let a = abs(v)
        let e = a <= 0.0031308 ? a * 12.92 : 1.055 * powf(a, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }
}
