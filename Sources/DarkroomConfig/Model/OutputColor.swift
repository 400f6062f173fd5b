/// How an output treats orientation and colour: the keys `auto_orient`, `color` and `intent`.
public struct OutputColor: Sendable, Equatable {
    /// What the output's samples mean (`color`).
    public enum Target: String, Sendable, Equatable, CaseIterable {
        /// Converted to sRGB from the input's ICC profile (untagged inputs are sRGB already).
        case srgb
        /// Left in the input's RGB colour space and tagged with its profile.
        case keep
    }

    /// The ICC rendering intent of the conversion (`intent`).
    public enum Intent: String, Sendable, Equatable, CaseIterable {
        case perceptual, relative
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
