/// How an output treats orientation and colour: the config's `auto_orient`, `color` and `intent`.
public struct ColorOptions: Sendable, Equatable {
    /// What the output's samples mean.
    public enum Target: String, Sendable, Equatable, CaseIterable {
        /// Converted from the embedded profile to sRGB (untagged inputs are taken as sRGB).
        case srgb
        /// As stored, tagged with the input's own profile (RGB profiles only; see ``ColorPlan``).
        case keep
    }

    /// The ICC rendering intent of the conversion.
    public enum Intent: String, Sendable, Equatable, CaseIterable {
        /// Gamut-compressing tables where the profile has them (printer/CMYK and some camera
        /// profiles); matrix profiles (Adobe RGB, ProPhoto, Display P3) have none and convert
        /// exactly as `relative` does.
        case perceptual
        /// Relative colorimetric: in-gamut colours exact, out-of-gamut ones clipped.
        case relative
    }

    /// Turn the pixels upright by the EXIF orientation (`auto_orient`); default true.
    public var autoOrient: Bool
    /// Default `srgb`.
    public var target: Target
    /// Default `perceptual`, as sharp: it matters only for profiles with gamut-mapping tables
    /// (CMYK, some camera profiles), where it compresses out-of-gamut colours instead of clipping.
    public var intent: Intent

    public init(autoOrient: Bool = true, target: Target = .srgb, intent: Intent = .perceptual) {
        self.autoOrient = autoOrient
        self.target = target
        self.intent = intent
    }
}

/// What colour management does for one output of one input, decided from the header alone.
///
/// - No profile: samples are sRGB already; nothing is converted, the output is untagged (as
///   libvips and sharp leave an untagged input). A CMYK image without a profile is converted
///   through the assumed press profile (``ICCProfile/assumedCMYK``, FOGRA39), as libvips,
///   Photoshop and RIPs assume one, not with the naive 255 − ink formula browsers use; the
///   report names it and the output is tagged sRGB.
/// - A profile that is sRGB in all but its bytes: nothing is converted; the output is tagged
///   with the compact sRGB profile.
/// - Any other usable profile: rows are converted to sRGB as they are decoded, and the output
///   is tagged sRGB; or, with `color: keep` and an RGB profile, left as stored and tagged with
///   the input's profile. CMYK and grey profiles are always converted (the outputs are RGB).
/// - An unusable profile (corrupt, or for other data than the image's): ignored with a warning;
///   the image is taken as sRGB and the output untagged.
public struct ColorPlan: Sendable, Equatable {
    /// The decoder converts rows from the embedded profile to sRGB.
    public var convertToSRGB: Bool
    public var intent: ColorOptions.Intent
    /// The profile the output is tagged with; nil leaves it untagged.
    public var outputProfile: [UInt8]?
    /// The name of the profile the pixels were converted from; nil when they were not.
    public var convertedFrom: String?
    /// Why the embedded profile was ignored, if it was.
    public var warning: String?

    public init(header: ImageInfo, options: ColorOptions) {
        intent = options.intent
        (convertToSRGB, outputProfile, convertedFrom, warning) = (header.isCMYK, nil, nil, nil)
        if header.isCMYK, header.icc == nil || header.iccWarning != nil {
            (outputProfile, convertedFrom) = (ICCProfile.sRGB, ICCProfile.assumedCMYK.name)
        }
        guard let profile = header.icc else { return }
        if let problem = header.iccWarning {
            warning = problem
        } else if options.target == .keep, profile.colorSpace == "rgb" {
            outputProfile = profile.bytes
        } else {
            convertToSRGB = true
            outputProfile = ICCProfile.sRGB
            convertedFrom = profile.isSRGB ? nil : profile.name
        }
    }

}

extension ImageInfo {
    var isCMYK: Bool { colorSpace == "cmyk" || colorSpace == "ycck" }

    /// Why the embedded profile is ignored (corrupt, or for other data than the image's); nil
    /// when it is usable or there is none. The decoder words its own warning the same way.
    public var iccWarning: String? {
        guard let problem = icc?.problem(forImageSpace: colorSpace) else { return nil }
        return "ICC profile ignored (\(problem)); " + (isCMYK ? "CMYK converted through the assumed FOGRA39 profile" : "colours taken as sRGB")
    }
}
